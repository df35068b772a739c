/// Reads XML 1.0 bytes (UTF-8) into an `XMLTree.Element`: a small, bounds-checked parser of the
/// well-formed subset subtitle files use, so the HLS module needs no XML library.
///
/// Elements, attributes, character data, CDATA, the five predefined entities and character references
/// are read; comments, processing instructions, the XML declaration and the DOCTYPE (internal subset
/// included) are skipped. Entities a DTD would declare are not expanded: an unknown `&name;` is an error,
/// as it is for any non-validating parser that does not read the DTD. Namespace prefixes are resolved by
/// the `xmlns` declarations in scope, never by their spelling. Line ends become LF (XML 1.0 §2.11).
struct XMLTokenizer {
    let bytes: [UInt8]
    private let maximumDepth: Int
    private var index = 0

    /// An element still open: its expanded name, the name as written (for the end tag) and its scope.
    private struct Open {
        let rawName: ArraySlice<UInt8>
        var element: XMLTree.Element
        let namespaces: [String: String]
        /// Character data not yet added as a text node: text, references and CDATA next to each other
        /// make one node, gathered here so that joining them stays linear.
        var pendingText: [UInt8] = []

        mutating func flushText() {
            guard !pendingText.isEmpty else { return }
            element.children.append(.text(String(decoding: pendingText, as: UTF8.self)))
            pendingText = []
        }
    }

    /// Namespace declarations in scope beyond this are refused: each element that declares one copies the scope.
    static let maximumNamespaceDeclarations = 256

    private init(_ bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// The root element of `bytes`, which must be UTF-8 without a BOM (`TextEncoding.utf8Bytes` gives that).
    static func parse(_ bytes: [UInt8], maximumDepth: Int = XMLTree.maximumDepth) throws(SubtitleError) -> XMLTree.Element {
        var tokenizer = XMLTokenizer(bytes, maximumDepth: maximumDepth)
        return try tokenizer.document()
    }

    private mutating func document() throws(SubtitleError) -> XMLTree.Element {
        var stack: [Open] = []
        var root: XMLTree.Element?
        let rootScope = ["xml": XMLTree.xmlNamespace]
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
                guard !stack.isEmpty else {
                    guard bytes[start..<index].allSatisfy(Self.isWhitespace) else {
                        throw malformed("text outside the root element", at: start)
                    }
                    continue
                }
                let text = try decodeCharacterData(start..<index, inAttribute: false)
                appendText(text, to: &stack)
                continue
            }
            if startsWith("<?") {
                try skip(past: "?>", what: "processing instruction")
            } else if startsWith("<!--") {
                try skip(past: "-->", what: "comment")
            } else if startsWith("<![CDATA[") {
                guard !stack.isEmpty else { throw malformed("CDATA outside the root element", at: index) }
                let start = index + 9
                guard let end = find("]]>", from: start) else { throw malformed("unterminated CDATA section", at: index) }
                appendText(Array(normalizingLineEnds(bytes[start..<end], inAttribute: false)), to: &stack)
                index = end + 3
            } else if startsWith("<!") {
                guard stack.isEmpty, root == nil else { throw malformed("markup declaration inside the document", at: index) }
                try skipDoctype()
            } else if startsWith("</") {
                let element = try endTag(&stack)
                if stack.isEmpty { root = element }
            } else {
                guard root == nil else { throw malformed("a second root element", at: index) }
                guard stack.count < maximumDepth else { throw .xmlNestingTooDeep(limit: maximumDepth) }
                let (open, isEmpty) = try startTag(scope: stack.last?.namespaces ?? rootScope)
                if isEmpty {
                    if stack.isEmpty { root = open.element } else { appendChild(.element(open.element), to: &stack) }
                } else {
                    stack.append(open)
                }
            }
        }
        if let open = stack.last {
            throw malformed("<\(String(decoding: open.rawName, as: UTF8.self))> is never closed", at: bytes.count)
        }
        guard let root else { throw malformed("no root element", at: bytes.count) }
        return root
    }

    // MARK: Tags

    private mutating func startTag(scope: [String: String]) throws(SubtitleError) -> (Open, isEmpty: Bool) {
        let tagStart = index
        index += 1
        let rawName = try name()
        var rawAttributes: [(name: ArraySlice<UInt8>, value: [UInt8])] = []
        var seenNames: Set<ArraySlice<UInt8>> = []
        var isEmpty = false
        while true {
            let sawSpace = skipWhitespace()
            guard index < bytes.count else { throw malformed("truncated start tag", at: tagStart) }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                break
            }
            if bytes[index] == UInt8(ascii: "/") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else {
                    throw malformed("'/' not followed by '>' in a start tag", at: index)
                }
                index += 2
                isEmpty = true
                break
            }
            guard sawSpace else { throw malformed("attributes must be separated by whitespace", at: index) }
            let attributeName = try name()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw malformed("attribute without '=' and a value", at: index)
            }
            index += 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw malformed("attribute value not quoted", at: index)
            }
            let quote = bytes[index]
            let valueStart = index + 1
            guard let valueEnd = bytes[valueStart...].firstIndex(of: quote) else {
                throw malformed("unterminated attribute value", at: index)
            }
            guard !bytes[valueStart..<valueEnd].contains(UInt8(ascii: "<")) else {
                throw malformed("'<' inside an attribute value", at: valueStart)
            }
            guard seenNames.insert(attributeName).inserted else {
                throw malformed("duplicate attribute \(String(decoding: attributeName, as: UTF8.self))", at: index)
            }
            rawAttributes.append((attributeName, try decodeCharacterData(valueStart..<valueEnd, inAttribute: true)))
            index = valueEnd + 1
        }
        // Namespaces in XML §6.1: declarations on this element are in scope for its own name and attributes.
        var namespaces = scope
        for attribute in rawAttributes {
            if attribute.name.elementsEqual("xmlns".utf8) {
                namespaces[""] = String(decoding: attribute.value, as: UTF8.self)
            } else if attribute.name.starts(with: "xmlns:".utf8) {
                let prefix = String(decoding: attribute.name.dropFirst(6), as: UTF8.self)
                namespaces[prefix] = String(decoding: attribute.value, as: UTF8.self)
            }
        }
        guard namespaces.count <= Self.maximumNamespaceDeclarations else {
            throw malformed("more than \(Self.maximumNamespaceDeclarations) namespace declarations in scope", at: tagStart)
        }
        let elementName = try resolve(rawName, in: namespaces, isAttribute: false, at: tagStart)
        var attributes: [XMLTree.Attribute] = []
        for attribute in rawAttributes {
            if attribute.name.elementsEqual("xmlns".utf8) || attribute.name.starts(with: "xmlns:".utf8) { continue }
            let attributeName = try resolve(attribute.name, in: namespaces, isAttribute: true, at: tagStart)
            attributes.append(XMLTree.Attribute(name: attributeName, value: String(decoding: attribute.value, as: UTF8.self)))
        }
        let element = XMLTree.Element(name: elementName, attributes: attributes, children: [])
        return (Open(rawName: rawName, element: element, namespaces: namespaces), isEmpty)
    }

    private mutating func endTag(_ stack: inout [Open]) throws(SubtitleError) -> XMLTree.Element {
        let tagStart = index
        index += 2
        let rawName = try name()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw malformed("truncated end tag", at: tagStart) }
        index += 1
        guard var open = stack.popLast() else { throw malformed("end tag without a start tag", at: tagStart) }
        open.flushText()
        guard open.rawName == rawName else {
            throw malformed("</\(String(decoding: rawName, as: UTF8.self))> closes <\(String(decoding: open.rawName, as: UTF8.self))>",
                            at: tagStart)
        }
        if !stack.isEmpty { appendChild(.element(open.element), to: &stack) }
        return open.element
    }

    /// `prefix:local` to an expanded name. Unprefixed attributes are in no namespace (§6.2).
    private func resolve(_ raw: ArraySlice<UInt8>, in namespaces: [String: String], isAttribute: Bool,
                         at offset: Int) throws(SubtitleError) -> XMLTree.Name {
        guard let colon = raw.firstIndex(of: UInt8(ascii: ":")) else {
            return XMLTree.Name(namespace: isAttribute ? "" : namespaces[""] ?? "", local: String(decoding: raw, as: UTF8.self))
        }
        let prefix = String(decoding: raw[raw.startIndex..<colon], as: UTF8.self)
        let local = raw[(colon + 1)...]
        guard !prefix.isEmpty, !local.isEmpty, !local.contains(UInt8(ascii: ":")) else {
            throw malformed("malformed qualified name", at: offset)
        }
        guard let namespace = namespaces[prefix] else { throw malformed("namespace prefix \(prefix) is not declared", at: offset) }
        return XMLTree.Name(namespace: namespace, local: String(decoding: local, as: UTF8.self))
    }

    private mutating func name() throws(SubtitleError) -> ArraySlice<UInt8> {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        guard index > start, !Self.isDigitOrNamePunctuation(bytes[start]) else { throw malformed("expected a name", at: start) }
        return bytes[start..<index]
    }

    // MARK: Character data and skipping

    private func appendText(_ text: [UInt8], to stack: inout [Open]) {
        guard !text.isEmpty, let last = stack.indices.last else { return }
        stack[last].pendingText += text
    }

    private func appendChild(_ node: XMLTree.Node, to stack: inout [Open]) {
        guard let last = stack.indices.last else { return }
        stack[last].flushText()
        stack[last].element.children.append(node)
    }

    /// Skips `<!DOCTYPE ...>`, including an internal subset in brackets and quoted literals in it.
    private mutating func skipDoctype() throws(SubtitleError) {
        let start = index
        var depth = 0
        var quote: UInt8?
        index += 2
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ">") where depth <= 0: return
            default: break
            }
        }
        throw malformed("unterminated DOCTYPE", at: start)
    }

    private mutating func skip(past terminator: String, what: String) throws(SubtitleError) {
        guard let end = find(terminator, from: index + 2) else { throw malformed("unterminated \(what)", at: index) }
        index = end + terminator.utf8.count
    }

    private func startsWith(_ prefix: String) -> Bool {
        bytes[index...].starts(with: prefix.utf8)
    }

    private func find(_ pattern: String, from start: Int) -> Int? {
        let needle = Array(pattern.utf8)
        guard let first = needle.first, start <= bytes.count else { return nil }
        var position = start
        while let candidate = bytes[position...].firstIndex(of: first) {
            if bytes[candidate...].starts(with: needle) { return candidate }
            position = candidate + 1
        }
        return nil
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = index
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        return index > start
    }

    func malformed(_ reason: String, at offset: Int) -> SubtitleError {
        .malformedXML(reason: reason, offset: offset)
    }
}
