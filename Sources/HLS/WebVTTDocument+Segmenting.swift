extension WebVTTDocument {
    /// Splits the document into HLS WebVTT segments, one per window `[boundaries[i], boundaries[i + 1])`,
    /// the last window open-ended. Boundaries are segment start times in milliseconds, ascending.
    ///
    /// RFC 8216 §3.5: each segment holds every cue shown during its span, with its full times, so a cue
    /// that straddles a boundary appears in both segments. Each segment keeps the header lines (with any
    /// X-TIMESTAMP-MAP) and the STYLE and REGION blocks; NOTEs stay out. A window without cues is still a
    /// valid file. Cues that end before the first boundary belong to no window. A zero-length cue belongs
    /// to the window holding its start.
    public func segmented(boundaries: [Int64]) -> [WebVTTDocument] {
        guard !boundaries.isEmpty else { return [] }
        var template = self
        template.blocks = blocks.filter { $0.kind != .note }
        template.cues = []
        var buckets = Array(repeating: [WebVTTCue](), count: boundaries.count)
        let ascending = zip(boundaries, boundaries.dropFirst()).allSatisfy { $0 <= $1 }
        for cue in cues {
            if ascending {
                for window in windowsShowing(cue, boundaries: boundaries) { buckets[window].append(cue) }
            } else {
                // Out-of-order boundaries: windows whose end precedes their start are empty; check each one.
                for window in boundaries.indices where Self.window(window, of: boundaries, shows: cue) {
                    buckets[window].append(cue)
                }
            }
        }
        return buckets.map { cues in
            var segment = template
            segment.cues = cues
            return segment
        }
    }

    /// The windows a cue shows in, found by binary search on ascending boundaries.
    private func windowsShowing(_ cue: WebVTTCue, boundaries: [Int64]) -> Range<Int> {
        // First window whose end lies after the cue's start: the last boundary <= start, or window 0.
        var low = 0
        var high = boundaries.count
        while low < high {
            let middle = (low + high) / 2
            if boundaries[middle] <= cue.start { low = middle + 1 } else { high = middle }
        }
        var window = max(low - 1, 0)
        while window < boundaries.count, !Self.window(window, of: boundaries, shows: cue) {
            // Only reached when the cue starts before the first boundary or windows are empty (equal boundaries).
            guard window + 1 < boundaries.count, boundaries[window + 1] < max(cue.end, cue.start + 1) else {
                return window..<window
            }
            window += 1
        }
        var last = window
        while last + 1 < boundaries.count, Self.window(last + 1, of: boundaries, shows: cue) { last += 1 }
        return window..<(last + 1)
    }

    /// Whether cue `[start, end)` overlaps window `i`; a cue with no duration counts at its start instant.
    private static func window(_ index: Int, of boundaries: [Int64], shows cue: WebVTTCue) -> Bool {
        let windowStart = boundaries[index]
        let windowEnd = index + 1 < boundaries.count ? boundaries[index + 1] : Int64.max
        guard windowStart < windowEnd else { return false }
        if cue.end <= cue.start {
            return cue.start >= windowStart && cue.start < windowEnd
        }
        return cue.start < windowEnd && cue.end > windowStart
    }
}
