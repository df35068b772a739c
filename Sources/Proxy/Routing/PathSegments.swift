/// Path pieces found by bytes, as RFC 3986 separates them. `split(separator: "/")` and
/// `firstIndex(of: "?")` on a String compare Characters, which runs grapheme breaking on every step:
/// on a subtitle URL that was a quarter of the request's instructions (bench/README.md). "/" and "?"
/// are ASCII, so the indices found through the UTF-8 view are scalar boundaries. The pieces differ from
/// the Character forms' where Unicode joins the separator to a neighbour into one Character (a
/// combining mark or U+200D after it, a "prepend" character such as U+0600 before it): a URL, like the
/// kernel, separates there.
extension StringProtocol where SubSequence == Substring {
    /// The "/"-separated segments, empty ones kept (as `split(separator: "/", omittingEmptySubsequences: false)`).
    func slashSegments() -> [Substring] {
        let utf8 = self.utf8
        var segments: [Substring] = []
        // A subtitle URL has six; room for them up front, not grown 1, 2, 4, 8.
        segments.reserveCapacity(8)
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                segments.append(self[start..<index])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        segments.append(self[start..<utf8.endIndex])
        return segments
    }
}

extension String {
    /// Where the first `?` is, found by bytes over the String's span (a search through the UTF-8 view
    /// moved an index per byte: about 570 instructions on a subtitle URL's master target); nil when
    /// there is none.
    func firstQuestionMark() -> Index? {
        let bytes = utf8.span
        for offset in bytes.indices where bytes[offset] == UInt8(ascii: "?") {
            return utf8.index(utf8.startIndex, offsetBy: offset)
        }
        return nil
    }
}
