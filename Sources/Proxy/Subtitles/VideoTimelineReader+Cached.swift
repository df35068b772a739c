import HTTPServer

/// The subtitle inputs' cache lookups without a fetch, for answers made on the loop thread
/// (`SubtitleResponder.immediate`): the same keys as `videoTimeline` and `partStart`.
extension VideoTimelineReader {
    /// The master's timeline if it is in the cache (a hit counts as `videoTimeline`'s does).
    func cachedTimeline(_ master: OriginTarget, request: HTTPRequest) -> VideoTimeline? {
        timelines.value(for: MemoryCacheKey.make(target: master, request: request), countingMiss: false)
    }

    /// Part `part`'s first PTS (`part` > 0) as `partStart` would find it in the cache: `.some(nil)` when
    /// the part has no first segment (no PTS to read), nil when the PTS is not cached.
    func cachedPartStart(_ master: OriginTarget, part: Int, timeline: VideoTimeline, request: HTTPRequest) -> Int64?? {
        guard timeline.parts.indices.contains(part), let segmentURL = timeline.parts[part].segmentURL else { return .some(nil) }
        let key = MemoryCacheKey.make(target: master, request: request, qualifiers: ["part", segmentURL])
        // Spelled out: returning the lookup itself would turn a miss into `.some(nil)`, "no PTS".
        guard let ticks = timestamps.value(for: key, countingMiss: false) else { return nil }
        return .some(ticks)
    }
}
