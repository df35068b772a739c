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

    /// Makes a pattern; every string is one, though an empty one matches only `/`-ending paths.
    public init(_ pattern: String) {
        self.pattern = pattern
        let whole = pattern.hasPrefix("/") ? pattern : "*/" + pattern
        anchored = Array(whole.unicodeScalars)
    }

    /// Whether the request path matches.
    public func matches(_ path: String) -> Bool {
        Self.globMatches(anchored, Array(path.unicodeScalars))
    }

    public var description: String { pattern }

    /// The two-pointer wildcard match: on a mismatch, only the most recent `*` is retried, one character
    /// further on. That is O(pattern × text) at worst, never exponential, whatever the number of stars.
    static func globMatches(_ pattern: [Unicode.Scalar], _ text: [Unicode.Scalar]) -> Bool {
        var p = 0
        var t = 0
        var lastStar: Int?
        var textAtLastStar = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "*" {
                lastStar = p
                textAtLastStar = t
                p += 1
            } else if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let star = lastStar {
                p = star + 1
                textAtLastStar += 1
                t = textAtLastStar
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
