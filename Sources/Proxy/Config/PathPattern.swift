/// A glob over a request path (percent-decoded, starting with `/`): `*` matches any run of characters,
/// `/` included, `?` exactly one character, and `{name}` one or more characters of one path segment
/// (no `/`), captured for templates (see `captures(inRawPath:)`).
///
/// A pattern starting with `/` must match the whole path. Any other pattern matches the end of the path
/// after a `/`: `*.m3u8` matches `/a/b/x.m3u8`, and `master.m3u8` matches `/x/master.m3u8` but not
/// `/x/my-master.m3u8`.
public struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public var pattern: String { box.pattern }
    /// What is matched against the whole path: the pattern, or `*/` followed by it.
    private var anchored: [Unicode.Scalar] { box.anchored }
    /// The same as bytes when the pattern is ASCII: an ASCII path is then matched byte by byte, with no
    /// copy (this runs for every request on a mount, against every subtitle set's masters).
    private var anchoredASCII: [UInt8]? { box.anchoredASCII }
    /// The ASCII pattern's bytes after its last wildcard: a matching path ends with them, so a path that
    /// does not is turned away with one comparison (most requests are segments no master rule names).
    private var literalTail: [UInt8] { box.literalTail }
    /// For a pattern with captures, its pieces; empty for a plain glob, which keeps the plain matcher.
    private var tokens: [Token] { box.tokens }
    /// The capture names, in the order they appear; empty for a plain glob.
    public var captureNames: [String] { box.captureNames }
    /// Why the pattern's braces do not read as captures (they are then matched as plain characters).
    public var templateProblem: String? { box.templateProblem }

    /// Everything above, made once from the pattern and shared by its copies: a pattern is copied
    /// for each request a mount answers (matched against every set's masters), and one reference is
    /// one retain where seven fields were seven (about 400 instructions a request).
    private final class Box: Sendable {
        let pattern: String
        let anchored: [Unicode.Scalar]
        let anchoredASCII: [UInt8]?
        let literalTail: [UInt8]
        let tokens: [Token]
        let captureNames: [String]
        let templateProblem: String?

        init(pattern: String, anchored: [Unicode.Scalar], anchoredASCII: [UInt8]?, literalTail: [UInt8], tokens: [Token],
             captureNames: [String], templateProblem: String?) {
            self.pattern = pattern
            self.anchored = anchored
            self.anchoredASCII = anchoredASCII
            self.literalTail = literalTail
            self.tokens = tokens
            self.captureNames = captureNames
            self.templateProblem = templateProblem
        }
    }

    private let box: Box

    /// Patterns are equal when written with the same scalars: everything else is made from them. (The
    /// texts alone would make canonically equivalent spellings equal, `é` and `e` + U+0301, which
    /// match different paths.)
    public static func == (a: PathPattern, b: PathPattern) -> Bool {
        a.box === b.box || (a.pattern == b.pattern && a.anchored == b.anchored)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(pattern) }

    /// One piece of a pattern with captures: a byte of literal text, `*`, `?` or capture number n.
    private enum Token: Sendable, Hashable {
        case byte(UInt8)
        case star
        case one
        case capture(Int)
    }

    /// Makes a pattern; every string is one, though an empty one matches only `/`-ending paths.
    public init(_ pattern: String) {
        let whole = pattern.hasPrefix("/") ? pattern : "*/" + pattern
        let anchored = Array(whole.unicodeScalars)
        let anchoredASCII = whole.utf8.allSatisfy { $0 < 0x80 } ? Array(whole.utf8) : nil
        var tokens: [Token] = []
        var names: [String] = []
        var problem: String?
        if Template.mayHaveCaptures(whole) {
            do {
                for part in try Template(parsing: whole).parts {
                    switch part {
                    case .literal(let text):
                        for byte in text.utf8 {
                            tokens.append(byte == UInt8(ascii: "*") ? .star : byte == UInt8(ascii: "?") ? .one : .byte(byte))
                        }
                    case .capture(let name):
                        tokens.append(.capture(names.count))
                        names.append(name)
                    }
                }
            } catch {
                problem = error.reason
                tokens = []
                names = []
            }
        }
        // The literal bytes after the last wildcard or capture, as bytes of the whole pattern.
        let bytes: [UInt8]
        if tokens.isEmpty {
            bytes = anchoredASCII ?? []
        } else {
            bytes = tokens.reversed().prefix { if case .byte = $0 { true } else { false } }.reversed().compactMap {
                if case .byte(let byte) = $0 { byte } else { nil }
            }
        }
        let lastWildcard = tokens.isEmpty ? bytes.lastIndex { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") } : nil
        box = Box(pattern: pattern, anchored: anchored, anchoredASCII: anchoredASCII,
                  literalTail: Array(bytes[(lastWildcard.map { $0 + 1 } ?? 0)...]), tokens: tokens,
                  captureNames: names, templateProblem: problem)
    }

    /// Whether the request path (percent-decoded) matches.
    public func matches(_ path: String) -> Bool {
        if !tokens.isEmpty {
            guard Self.endsWith(path.utf8.span, literalTail) else { return false }
            return captureRanges(in: Array(path.utf8)) != nil
        }
        if let anchoredASCII {
            let bytes = path.utf8.span
            // The tail is ASCII, so it compares byte for byte whatever else the path holds.
            guard Self.endsWith(bytes, literalTail) else { return false }
            // `?` is one character: byte by byte is the same only when every byte is one.
            var ascii = true
            for index in bytes.indices where bytes[index] >= 0x80 {
                ascii = false
                break
            }
            if ascii { return Self.globMatches(anchoredASCII, bytes) }
        }
        return Self.globMatches(anchored, Array(path.unicodeScalars), star: "*", any: "?")
    }

    /// The captures of a request path given raw (still percent-encoded), each exactly as the request
    /// spelled it, by name; nil when the path does not match. The pattern's literal text matches a
    /// character whether it is written plainly or escaped, as `matches` does on the decoded path.
    public func captures(inRawPath rawPath: Substring) -> [String: Substring]? {
        let (bytes, rawOffsets) = Self.lenientlyDecoded(rawPath)
        guard !tokens.isEmpty else { return matches(String(decoding: bytes, as: UTF8.self)) ? [:] : nil }
        guard let ranges = captureRanges(in: bytes) else { return nil }
        let utf8 = rawPath.utf8
        var values: [String: Substring] = [:]
        for (number, range) in ranges.enumerated() where captureNames.indices.contains(number) {
            guard rawOffsets.indices.contains(range.lowerBound), rawOffsets.indices.contains(range.upperBound) else { return nil }
            let start = utf8.index(utf8.startIndex, offsetBy: rawOffsets[range.lowerBound])
            let end = utf8.index(utf8.startIndex, offsetBy: rawOffsets[range.upperBound])
            values[captureNames[number]] = rawPath[start..<end]
        }
        return values
    }

    public var description: String { pattern }

    // MARK: - Matching

    /// Whether `bytes` ends with `tail`.
    private static func endsWith(_ bytes: Span<UInt8>, _ tail: [UInt8]) -> Bool {
        guard bytes.count >= tail.count else { return false }
        let start = bytes.count - tail.count
        for index in tail.indices where bytes[start + index] != tail[index] { return false }
        return true
    }

    /// The byte ranges of the captures when `text` matches the tokens. A backtracking match, each
    /// (wildcard, position) pair tried at most once: O(wildcards × text) states at worst, never exponential.
    private func captureRanges(in text: [UInt8]) -> [Range<Int>]? {
        var matcher = CaptureMatcher(tokens: tokens, text: text, captureCount: captureNames.count)
        return matcher.matches(from: 0, at: 0) ? matcher.ranges : nil
    }

    private struct CaptureMatcher {
        let tokens: [Token]
        let text: [UInt8]
        var ranges: [Range<Int>]
        /// For each token position, its wildcard number (star or capture), else nil.
        let wildcardNumbers: [Int?]
        /// (wildcard number, text position) pairs already known to fail.
        var failed: [Bool]

        init(tokens: [Token], text: [UInt8], captureCount: Int) {
            self.tokens = tokens
            self.text = text
            ranges = Array(repeating: 0..<0, count: captureCount)
            var numbers: [Int?] = []
            var count = 0
            for token in tokens {
                switch token {
                case .star, .capture:
                    numbers.append(count)
                    count += 1
                default: numbers.append(nil)
                }
            }
            wildcardNumbers = numbers
            failed = Array(repeating: false, count: count * (text.count + 1))
        }

        mutating func matches(from start: Int, at position: Int) -> Bool {
            var p = start
            var t = position
            while p < tokens.count {
                switch tokens[p] {
                case .byte(let byte):
                    guard t < text.count, text[t] == byte else { return false }
                    p += 1
                    t += 1
                case .one:
                    // One character: a UTF-8 lead byte and its continuation bytes.
                    guard t < text.count else { return false }
                    t += 1
                    while t < text.count, text[t] & 0xC0 == 0x80 { t += 1 }
                    p += 1
                case .star, .capture:
                    guard let number = wildcardNumbers[p] else { return false }
                    let memo = number * (text.count + 1) + t
                    if failed[memo] { return false }
                    var limit = text.count
                    var shortest = t
                    if case .capture = tokens[p] {
                        // One segment, at least one byte.
                        limit = text[t...].firstIndex(of: UInt8(ascii: "/")) ?? text.count
                        shortest = t + 1
                    }
                    var end = limit
                    while end >= shortest {
                        if case .capture(let index) = tokens[p] { ranges[index] = t..<end }
                        if matches(from: p + 1, at: end) { return true }
                        end -= 1
                    }
                    failed[memo] = true
                    return false
                }
            }
            return t == text.count
        }
    }

    /// The path with `%XX` escapes decoded (any other `%` kept as it is), and for each byte of it, and
    /// one past the end, its offset in the raw path: captures map back to the request's own spelling.
    static func lenientlyDecoded(_ raw: Substring) -> (bytes: [UInt8], rawOffsets: [Int]) {
        let bytes = Array(raw.utf8)
        var out: [UInt8] = []
        var offsets: [Int] = []
        out.reserveCapacity(bytes.count)
        offsets.reserveCapacity(bytes.count + 1)
        var index = 0
        while index < bytes.count {
            offsets.append(index)
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        offsets.append(bytes.count)
        return (out, offsets)
    }

    /// A hex digit's value (RFC 3986 §2.1 percent-encoding), either case; nil for any other byte. Here
    /// rather than in PathDecoding because bench/path_pattern.sh compiles this file on its own.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The two-pointer wildcard match over ASCII bytes, as `globMatches(_:_:star:any:)`, read through a Span.
    static func globMatches(_ pattern: [UInt8], _ text: Span<UInt8>) -> Bool {
        globMatches(
            patternCount: pattern.count, textCount: text.count,
            isStar: { pattern[$0] == UInt8(ascii: "*") },
            matches: { p, t in pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] }
        )
    }

    /// The same match over any elements (Unicode scalars for a path that is not all ASCII).
    static func globMatches<Pattern: RandomAccessCollection<Element>, Text: RandomAccessCollection<Element>, Element: Equatable>(
        _ pattern: Pattern, _ text: Text, star: Element, any: Element
    ) -> Bool where Pattern.Index == Int, Text.Index == Int {
        globMatches(
            patternCount: pattern.count, textCount: text.count,
            isStar: { pattern[$0] == star },
            matches: { p, t in pattern[p] == any || pattern[p] == text[t] }
        )
    }

    /// The two-pointer wildcard match: on a mismatch, only the most recent `*` is retried, one character
    /// further on. That is O(pattern × text) at worst, never exponential, whatever the number of stars.
    /// Positions only: `isStar(p)` tells a `*` at pattern position p, `matches(p, t)` a `?` or equal element.
    private static func globMatches(
        patternCount: Int, textCount: Int, isStar: (Int) -> Bool, matches: (_ p: Int, _ t: Int) -> Bool
    ) -> Bool {
        var p = 0
        var t = 0
        var lastStar: Int?
        var textAtLastStar = 0
        while t < textCount {
            if p < patternCount, isStar(p) {
                lastStar = p
                textAtLastStar = t
                p += 1
            } else if p < patternCount, matches(p, t) {
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
        while p < patternCount, isStar(p) { p += 1 }
        return p == patternCount
    }
}
