// MARK: - Reading and writing single elements
extension AttributeList {
    /// RFC 8216 §4.2: an AttributeName is made of `[A-Z]`, `[0-9]` and `-`.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    /// The name bytes of one element (empty when it has no `=`).
    static func name(of element: [UInt8]) -> ArraySlice<UInt8> {
        guard let equals = element.firstIndex(of: PlaylistSyntax.equals) else { return [] }
        return PlaylistSyntax.trimmed(element[..<equals])
    }

    /// Reads one element; nil when it is blank or has no usable name.
    static func attribute(in element: [UInt8]) -> Attribute? {
        guard let equals = element.firstIndex(of: PlaylistSyntax.equals) else { return nil }
        let name = PlaylistSyntax.trimmed(element[..<equals])
        guard !name.isEmpty else { return nil }
        let value = PlaylistSyntax.trimmed(element[(equals + 1)...])
        let isQuoted = value.count >= 2 && value.first == PlaylistSyntax.quote && value.last == PlaylistSyntax.quote
        return Attribute(
            name: String(decoding: name, as: UTF8.self),
            rawValue: String(decoding: value, as: UTF8.self),
            isQuoted: isQuoted
        )
    }

    /// Whether `element` is `name=...` (names compared as bytes, with no String made per element).
    static func element(_ element: [UInt8], isNamed name: [UInt8]) -> Bool {
        guard let equals = element.firstIndex(of: PlaylistSyntax.equals) else { return false }
        return PlaylistSyntax.trimmed(element[..<equals]).elementsEqual(name)
    }

    /// The first malformation in a list whose quotes are balanced.
    func findProblem() -> Problem? {
        var seen: Set<String> = []
        for (index, element) in elements.enumerated() {
            if PlaylistSyntax.trimmed(element[...]).isEmpty { continue }
            guard let equals = element.firstIndex(of: PlaylistSyntax.equals) else { return .missingEquals(element: index) }
            guard !PlaylistSyntax.trimmed(element[..<equals]).isEmpty else { return .emptyName(element: index) }
            let value = PlaylistSyntax.trimmed(element[(equals + 1)...])
            if value.first == PlaylistSyntax.quote, value.count < 2 || value.last != PlaylistSyntax.quote {
                return .textAfterQuote(element: index)
            }
            guard let attribute = Self.attribute(in: element) else { continue }
            if !seen.insert(attribute.name).inserted { return .duplicateName(attribute.name) }
        }
        return nil
    }

    /// Replaces the first `name` element's value, keeping the whitespace before its name; or appends
    /// `name=rawValue`. A trailing blank element (a trailing comma) takes the new attribute, so the
    /// original text stays an exact prefix of the result.
    mutating func set(_ name: String, rawValue: String) throws(PlaylistError) {
        guard Self.isValidName(name) else { throw .invalidAttribute(name: name) }
        // An open quoted string would swallow whatever is appended after it.
        guard !hasOpenQuote else { throw .malformedAttributeList(line: 0) }
        let replacement = Array("\(name)=\(rawValue)".utf8)
        let nameBytes = Array(name.utf8)
        if let index = elements.firstIndex(where: { Self.element($0, isNamed: nameBytes) }) {
            let leading = elements[index].prefix { PlaylistSyntax.isWhitespace($0) }
            elements[index] = Array(leading) + replacement
        } else if let last = elements.last, PlaylistSyntax.trimmed(last[...]).isEmpty {
            elements[elements.count - 1] = replacement
        } else {
            elements.append(replacement)
        }
    }
}
