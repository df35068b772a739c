extension String {
    /// The string without leading and trailing XML whitespace (space, tab, CR, LF).
    var trimmingWhitespace: String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !XMLTokenizer.isWhitespace($0) }),
              let last = bytes.lastIndex(where: { !XMLTokenizer.isWhitespace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
