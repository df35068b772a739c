/// What an origin may make of one decoded path segment. RFC 3986 §5.2.4 climbs only for a segment that is
/// exactly `..`, but servers read more spellings that way: Tomcat and Jetty cut path parameters at `;`
/// (`..;jsessionid=x`), some trim spaces, tabs and other controls (`..%09`, `..%20`), Windows servers
/// drop trailing dots and spaces and older ones read `...` as two levels up, and a few fold Unicode
/// compatibility dots (`．．`, U+FF0E) to ASCII. Any of those sent on would let a request climb out of
/// its mount at such an origin, so a segment is judged the way the most lenient of them would read it.
enum DotSegment {
    /// How a segment reads.
    enum Reading: Equatable {
        /// A name: no reading of it climbs.
        case name
        /// Exactly `..` once decoded (or a piece of it between encoded `/` or `\`): climbs everywhere.
        case parent
        /// A spelling some origins read as `..` (or as more than one level up).
        case lenientParent
    }

    /// Reads a percent-decoded segment. A single dot in any spelling (`.`, `.;`, `.%20`) is a name here:
    /// every reading of it stays in the same directory.
    static func reading(_ decoded: String) -> Reading {
        var result = Reading.name
        // An encoded `/` or `\` is a separator to servers that decode before they split.
        for piece in decoded.unicodeScalars.split(whereSeparator: { $0 == "/" || $0 == "\\" }) {
            if piece.elementsEqual("..".unicodeScalars) { return .parent }
            if isLenientParent(piece) { result = .lenientParent }
        }
        return result
    }

    /// Whether a piece, cut at its first `;`, `?` or `#`, is nothing but two or more dots once whitespace,
    /// control and format characters are trimmed. Such characters between the dots count as padding too
    /// (`. .`): no real name looks like that, and a server that squeezes them would read `..`.
    private static func isLenientParent(_ piece: Substring.UnicodeScalarView) -> Bool {
        var dots = 0
        for scalar in piece {
            if scalar == ";" || scalar == "?" || scalar == "#" { break }
            if let weight = dotWeight(scalar) {
                dots += weight
            } else if !isTrimmed(scalar) {
                return false
            }
        }
        return dots >= 2
    }

    /// How many dots a scalar counts for once compatibility-folded (NFKC): `.`, `․` (U+2024), `﹒` (U+FE52)
    /// and `．` (U+FF0E) are one, `‥` (U+2025) is two; nil for anything else.
    private static func dotWeight(_ scalar: Unicode.Scalar) -> Int? {
        switch scalar.value {
        case 0x2E, 0x2024, 0xFE52, 0xFF0E: return 1
        case 0x2025: return 2
        default: return nil
        }
    }

    /// What lenient servers trim from a segment's ends: whitespace, C0/C1 controls, DEL and format
    /// characters such as zero-width spaces and byte-order marks.
    private static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isWhitespace { return true }
        switch scalar.properties.generalCategory {
        case .control, .format: return true
        default: return false
        }
    }
}
