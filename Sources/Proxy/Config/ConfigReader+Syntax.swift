import HLS
/// Character classes and printing shared by the config's validation rules.
extension ConfigReader {
    static func isASCIIDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        isASCIIDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// Keys printed bare in a field path; anything else is printed quoted.
    static func isPlainKeyByte(_ byte: UInt8) -> Bool {
        isASCIIAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    /// Names that appear as one URL path segment unescaped: `[A-Za-z0-9_-]+` (mounts, subtitle sets, track ids).
    static func isURLSafeName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isPlainKeyByte)
    }

    /// RFC 9110 §5.6.2: token = 1*tchar, the grammar of a header field name.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { isASCIIAlphanumeric($0) || tokenPunctuation.contains($0) }
    }

    private static let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)

    /// RFC 9110 §5.5: a field value is visible characters, spaces and tabs (and obs-text); no other controls.
    static func isFieldValue(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }

    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// A number as a person would write it: `0`, not `0.0`.
    static func formatted(_ number: Double) -> String {
        if let integer = Int64(exactly: number), integer.magnitude < 1 << 53 { return String(integer) }
        return String(number)
    }

    /// The value in double quotes, escaped for a message (the same quoting as track problems).
    static func quoted(_ value: String) -> String {
        DisplayQuoting.quoted(value)
    }
}
