/// One stretch of a requested byte range, as the disk cache will produce it: from a stored piece, or
/// from the origin because no piece holds it. Bounds are object offsets, both inclusive.
enum DiskCacheSpan: Equatable {
    /// Bytes `lower...upper`, read from the piece at index `piece` of the list given to `cover`.
    case stored(piece: Int, lower: Int, upper: Int)
    /// Bytes `lower...upper`, which no piece holds.
    case missing(lower: Int, upper: Int)

    /// Splits `lower...upper` into stretches in order, taking each byte from the piece that holds it and
    /// reaches furthest (fewest reads), and leaving each gap between pieces as one missing stretch (one
    /// origin request).
    static func cover(_ lower: Int, _ upper: Int, with pieces: [ClosedRange<Int>]) -> [DiskCacheSpan] {
        var spans: [DiskCacheSpan] = []
        var position = lower
        while position <= upper {
            let holding = pieces.indices.filter { pieces[$0].contains(position) }
            let end: Int
            if let best = holding.max(by: { pieces[$0].upperBound < pieces[$1].upperBound }) {
                end = min(pieces[best].upperBound, upper)
                spans.append(.stored(piece: best, lower: position, upper: end))
            } else {
                let next = pieces.lazy.map(\.lowerBound).filter { $0 > position }.min()
                end = min(next.map { $0 - 1 } ?? upper, upper)
                spans.append(.missing(lower: position, upper: end))
            }
            // Stops at the last byte rather than stepping past it (no overflow at Int.max).
            guard end < upper else { break }
            position = end + 1
        }
        return spans
    }

    /// Whether the bytes come from disk.
    var isStored: Bool {
        if case .stored = self { return true }
        return false
    }
}
