/// A lossless attribute list (RFC 8216 §4.2): `NAME=VALUE` pairs separated by commas.
///
/// The text between separating commas is kept byte for byte, so spacing, quoting, a trailing comma and
/// the spelling of every value survive. Quoted strings may contain commas. A malformed list never traps:
/// its text is kept and `problem` says what is wrong.
public struct AttributeList: Sendable, Equatable {
    /// What is wrong with a malformed list.
    public enum Problem: Sendable, Equatable {
        /// A quoted string is not closed; everything after its opening quote belongs to it.
        case unterminatedQuote
        /// An element (counted from 0) has no `=`.
        case missingEquals(element: Int)
        /// An element (counted from 0) has nothing before its `=`.
        case emptyName(element: Int)
        /// An element (counted from 0) has text after its closing quote.
        case textAfterQuote(element: Int)
        /// An attribute name appears more than once (RFC 8216 §4.2 forbids it).
        case duplicateName(String)
    }

    /// One `NAME=VALUE` element as read.
    public struct Attribute: Sendable, Equatable {
        /// The name, without surrounding whitespace.
        public var name: String
        /// The value as spelled, quotes included, without surrounding whitespace.
        public var rawValue: String
        /// True when the value is a quoted string.
        public var isQuoted: Bool
        /// The value with its quotes removed.
        public var value: String {
            // By bytes: a combining mark after the opening quote would join it in one Character.
            isQuoted ? String(decoding: Array(rawValue.utf8.dropFirst().dropLast()), as: UTF8.self) : rawValue
        }
    }

    /// The exact bytes of each comma-separated element, in order.
    var elements: [[UInt8]]
    /// True when the last quoted string is never closed.
    var hasOpenQuote = false

    /// The first thing found wrong, if any (worked out on each call: most lists are never asked).
    public var problem: Problem? {
        hasOpenQuote ? .unterminatedQuote : findProblem()
    }

    /// An empty list.
    public init() {
        elements = []
    }

    /// Reads `text` as an attribute list.
    public init(_ text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// Reads `bytes` as an attribute list.
    public init(bytes: [UInt8]) {
        elements = []
        guard !bytes.isEmpty else { return }
        var inQuotes = false
        var elementStart = 0
        for (index, byte) in bytes.enumerated() {
            if byte == PlaylistSyntax.quote {
                inQuotes.toggle()
            } else if byte == PlaylistSyntax.comma, !inQuotes {
                elements.append(Array(bytes[elementStart..<index]))
                elementStart = index + 1
            }
        }
        elements.append(Array(bytes[elementStart...]))
        hasOpenQuote = inQuotes
    }

    /// The attributes in order; blank elements (from `,,` or a trailing comma) and malformed ones are left out.
    public var attributes: [Attribute] {
        elements.compactMap(Self.attribute(in:))
    }

    /// The names in order.
    public var names: [String] {
        attributes.map(\.name)
    }

    /// The first attribute called `name` (names are case-sensitive, RFC 8216 §4.2).
    public subscript(name: String) -> Attribute? {
        let nameBytes = Array(name.utf8)
        for element in elements where Self.name(of: element).elementsEqual(nameBytes) {
            return Self.attribute(in: element)
        }
        return nil
    }

    /// The unquoted value of the first attribute called `name`.
    public func value(_ name: String) -> String? {
        self[name]?.value
    }

    /// True when an attribute called `name` is present.
    public func contains(_ name: String) -> Bool {
        self[name] != nil
    }

    /// Sets `name` to a quoted string, replacing its value in place or appending it.
    /// Throws `.invalidAttribute` when `value` holds `"`, CR or LF, which no quoted string can carry.
    public mutating func set(_ name: String, quoted value: String) throws(PlaylistError) {
        guard Self.canQuote(value) else { throw .invalidAttribute(name: name) }
        try set(name, rawValue: "\"\(value)\"")
    }

    /// Sets `name` to an unquoted value (enumerated string, number, resolution), in place or appended.
    /// Throws `.invalidAttribute` for an empty value or one holding `"`, `,`, whitespace, CR or LF.
    public mutating func set(_ name: String, unquoted value: String) throws(PlaylistError) {
        let forbidden: Set<UInt8> = [PlaylistSyntax.quote, PlaylistSyntax.comma, PlaylistSyntax.space, PlaylistSyntax.tab, PlaylistSyntax.carriageReturn, PlaylistSyntax.lineFeed]
        guard !value.isEmpty, !value.utf8.contains(where: forbidden.contains) else { throw .invalidAttribute(name: name) }
        try set(name, rawValue: value)
    }

    /// The list's bytes: each element as read or set, joined by commas.
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(PlaylistSyntax.comma) }
            bytes.append(contentsOf: element)
        }
        return bytes
    }

    /// The list as text.
    public var text: String {
        String(decoding: serialized(), as: UTF8.self)
    }

    /// True when `value` can be written between quotes (RFC 8216 §4.2: no `"`, CR or LF, and no escape).
    public static func canQuote(_ value: String) -> Bool {
        !value.utf8.contains { $0 == PlaylistSyntax.quote || $0 == PlaylistSyntax.carriageReturn || $0 == PlaylistSyntax.lineFeed }
    }
}
