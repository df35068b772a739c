/// A string with `{name}` captures in it: a `masters` pattern names them, a track's `source` and `name`
/// use them. A name is letters, digits and `_`, not starting with a digit; every `{` opens one and
/// every `}` closes one (URLs have no literal braces: RFC 3986 §2 leaves them out).
public struct Template: Sendable, Hashable {
    /// A run of text or a capture, in order.
    public enum Part: Sendable, Hashable {
        case literal(String)
        case capture(String)
    }

    /// The parts, in order; a string without braces is one literal.
    public let parts: [Part]

    /// Parses `text`; throws a one-line reason when a brace does not open or close a capture.
    public init(parsing text: String) throws(TemplateError) {
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let brace = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            literal += rest[..<brace]
            guard rest[brace] == "{" else { throw TemplateError("\"}\" closes no capture: write captures as {name}") }
            let afterBrace = rest.index(after: brace)
            guard let close = rest[afterBrace...].firstIndex(where: { !Self.isNameCharacter($0) }), rest[close] == "}" else {
                throw TemplateError("\"{\" opens no capture: write captures as {name} (letters, digits and _)")
            }
            let name = String(rest[afterBrace..<close])
            guard let first = name.unicodeScalars.first, !(0x30...0x39).contains(first.value) else {
                throw TemplateError("capture {\(name)} needs a name that starts with a letter or _")
            }
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
            parts.append(.capture(name))
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty || parts.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// Whether `text` has any brace, so needs parsing (most sources and names have none).
    public static func mayHaveCaptures(_ text: String) -> Bool {
        // Over the span: every subtitle request asks this of each track's source and name.
        let bytes = text.utf8.span
        for index in bytes.indices where bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "}") { return true }
        return false
    }

    /// The capture names used, in order of first use.
    public var captureNames: [String] {
        var names: [String] = []
        for case .capture(let name) in parts where !names.contains(name) { names.append(name) }
        return names
    }

    /// The text with each capture replaced by its value, copied as it is (a capture taken from a request
    /// path stays percent-encoded); nil when a value is missing.
    public func substituting(_ values: [String: Substring]) -> String? {
        var out = ""
        for part in parts {
            switch part {
            case .literal(let text): out += text
            case .capture(let name):
                guard let value = values[name] else { return nil }
                out += value
            }
        }
        return out
    }

    /// The URL template with each capture substituted as in `substituting`, except that a capture after
    /// the first literal `?` (in the query) gets every byte that is not unreserved (RFC 3986 §2.3) nor `%`
    /// percent-encoded: a request path may carry `&`, `=` or `;` (RFC 3986 §3.3), which in a query would
    /// add parameters the template's author never wrote. Nil when a value is missing.
    public func substitutingURL(_ values: [String: Substring]) -> String? {
        var out = ""
        var inQuery = false
        for part in parts {
            switch part {
            case .literal(let text):
                out += text
                if text.contains("?") { inQuery = true }
            case .capture(let name):
                guard let value = values[name] else { return nil }
                out += inQuery ? Self.queryEncoded(value) : String(value)
            }
        }
        return out
    }

    /// `value` with every byte outside `A-Za-z0-9-._~` and `%` written as `%XX` (RFC 3986 §2.1).
    static func queryEncoded(_ value: Substring) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"):
                bytes.append(byte)
            default:
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `[A-Za-z0-9_]`.
    static func isNameCharacter(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (0x30...0x39).contains(ascii) || (0x41...0x5A).contains(ascii) || (0x61...0x7A).contains(ascii) || ascii == 0x5F
    }
}

/// Why a template does not parse, in one line.
public struct TemplateError: Error, Sendable, Hashable {
    public let reason: String
    init(_ reason: String) { self.reason = reason }
}
