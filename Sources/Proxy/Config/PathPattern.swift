/// A glob over a request path (percent-decoded, starting with `/`): `*` matches any run of characters,
/// `/` included, and `?` exactly one character.
///
/// A pattern starting with `/` must match the whole path. Any other pattern matches the end of the path
/// after a `/`: `*.m3u8` matches `/a/b/x.m3u8`, and `master.m3u8` matches `/x/master.m3u8` but not
/// `/x/my-master.m3u8`.
public struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    /// What is matched against the whole path: the pattern, or `*/` followed by it.
    private let anchored: [Unicode.Scalar]
    /// The same as bytes when the pattern is ASCII: an ASCII path is then matched byte by byte, with no
    /// copy (this runs for every request on a mount, against every subtitle set's masters).
    private let anchoredASCII: [UInt8]?
    /// The ASCII pattern's bytes after its last wildcard: a matching path ends with them, so a path that
    /// does not is turned away with one comparison (most requests are segments no master rule names).
    private let literalTail: [UInt8]

    /// Makes a pattern; every string is one, though an empty one matches only `/`-ending paths.
    public init(_ pattern: String) {
        self.pattern = pattern
        let whole = pattern.hasPrefix("/") ? pattern : "*/" + pattern
        anchored = Array(whole.unicodeScalars)
        anchoredASCII = whole.utf8.allSatisfy { $0 < 0x80 } ? Array(whole.utf8) : nil
        let bytes = anchoredASCII ?? []
        let lastWildcard = bytes.lastIndex { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") }
        literalTail = Array(bytes[(lastWildcard.map { $0 + 1 } ?? 0)...])
    }

    /// Whether the request path matches.
    public func matches(_ path: String) -> Bool {
        if let anchoredASCII {
            let matched = path.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
                // The tail is ASCII, so it compares byte for byte whatever else the path holds.
                guard bytes.count >= literalTail.count,
                      UnsafeBufferPointer(rebasing: bytes[(bytes.count - literalTail.count)...]).elementsEqual(literalTail) else {
                    return false
                }
                // `?` is one character: byte by byte is the same only when every byte is one.
                guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
                return Self.globMatches(anchoredASCII, bytes, star: UInt8(ascii: "*"), any: UInt8(ascii: "?"))
            }
            if let result = matched ?? nil { return result }
        }
        return Self.globMatches(anchored, Array(path.unicodeScalars), star: "*", any: "?")
    }

    public var description: String { pattern }

    /// The two-pointer wildcard match: on a mismatch, only the most recent `*` is retried, one character
    /// further on. That is O(pattern × text) at worst, never exponential, whatever the number of stars.
    static func globMatches<Pattern: RandomAccessCollection<Element>, Text: RandomAccessCollection<Element>, Element: Equatable>(
        _ pattern: Pattern, _ text: Text, star: Element, any: Element
    ) -> Bool where Pattern.Index == Int, Text.Index == Int {
        var p = 0
        var t = 0
        var lastStar: Int?
        var textAtLastStar = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == star {
                lastStar = p
                textAtLastStar = t
                p += 1
            } else if p < pattern.count, pattern[p] == any || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let starIndex = lastStar {
                p = starIndex + 1
                textAtLastStar += 1
                t = textAtLastStar
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == star { p += 1 }
        return p == pattern.count
    }
}
