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
                for window in windowsShowing(cue, boundaries: boundaries)
                where Self.window(window, of: boundaries, shows: cue) {
                    buckets[window].append(cue)
                }
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

    /// Segment `index` of `segmented(boundaries:)` alone, or nil past the last window: one pass over
    /// the cues that copies only the cues of that window, where the whole split copies every cue.
    public func segment(_ index: Int, boundaries: [Int64]) -> WebVTTDocument? {
        guard boundaries.indices.contains(index) else { return nil }
        var segment = self
        segment.blocks = blocks.filter { $0.kind != .note }
        let ascending = zip(boundaries, boundaries.dropFirst()).allSatisfy { $0 <= $1 }
        // The same tests as `segmented`, so the window holds exactly the cues the full split puts in it.
        segment.cues = cues.filter { cue in
            (!ascending || windowsShowing(cue, boundaries: boundaries).contains(index))
                && Self.window(index, of: boundaries, shows: cue)
        }
        return segment
    }

    /// The windows a cue may show in, found by binary search on ascending boundaries: from the last
    /// boundary at or before its start to the last boundary before its end. Callers filter out empty windows.
    private func windowsShowing(_ cue: WebVTTCue, boundaries: [Int64]) -> Range<Int> {
        let first = max(Self.countOfBoundaries(boundaries, below: Timestamp.saturatingAdd(cue.start, 1)) - 1, 0)
        // A zero-length cue counts at its start instant, like one lasting a millisecond.
        let end = max(cue.end, Timestamp.saturatingAdd(cue.start, 1))
        let last = Self.countOfBoundaries(boundaries, below: end)
        return first..<max(first, last)
    }

    /// How many of the ascending boundaries are below `value`.
    private static func countOfBoundaries(_ boundaries: [Int64], below value: Int64) -> Int {
        var low = 0
        var high = boundaries.count
        while low < high {
            let middle = (low + high) / 2
            if boundaries[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
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
