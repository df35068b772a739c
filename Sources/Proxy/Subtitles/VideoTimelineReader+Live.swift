import HLS

/// Sliding-window (live) video playlists and sequence tags that cannot be mirrored as written.
extension VideoTimelineReader {
    /// The live clock of `master` advanced to this window (RFC 8216 §6.2.1: the subtitle playlist slides
    /// with the video, so its segment numbers must keep naming the same cue windows). Nil, with a log
    /// line once per master, when the window has no readable EXT-X-MEDIA-SEQUENCE: it is then followed
    /// like an EVENT playlist, from 0.
    /// Segment URIs are resolved against `base` first, so an anchor names a fetchable segment.
    func liveClock(for media: MediaPlaylist, base: String, key: String, master: OriginTarget) -> LiveWindowClock? {
        // RFC 8216 §4.3.3.2, §4.3.3.3: a missing sequence tag means 0; an unreadable one is not guessed.
        let sequence = media.mediaSequence ?? (media.unreadableTags.contains { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE") } ? nil : 0)
        let discontinuitySequence = media.discontinuitySequence
            ?? (media.unreadableTags.contains { $0.hasPrefix("#EXT-X-DISCONTINUITY-SEQUENCE") } ? nil : 0)
        let segments = media.segments.map { segment in
            var resolved = segment
            resolved.uri = URLReference.resolve(segment.uri, against: base, mount: master.mount) ?? segment.uri
            resolved.mapURI = segment.mapURI.flatMap { URLReference.resolve($0, against: base, mount: master.mount) }
            return resolved
        }
        // Segment URLs carry the number as an Int (`SubtitleURL`): a window past Int.max is not mirrored.
        guard let sequence, let discontinuitySequence, UInt64(segments.count) <= UInt64(Int.max) - min(sequence, UInt64(Int.max)),
              let (clock, outcome) = liveClocks.advance(
                key, sequence: sequence, discontinuitySequence: discontinuitySequence, segments: segments,
                targetDuration: media.targetDuration ?? 0)
        else {
            if notices.isFirst("live-unnumbered:\(key)") {
                logger.log(.warn, "live playlist's sequence numbers unusable: subtitles follow it from 0, not sliding with it", [
                    ("master", master.proxyTarget),
                ])
            }
            return nil
        }
        switch outcome {
        case .skipped(let missing):
            logger.log(.warn, "live window moved past every remembered segment: subtitle times estimated at the target duration", [
                ("master", master.proxyTarget), ("missing_segments", String(missing)), ("media_sequence", String(sequence)),
            ])
        case .restarted:
            logger.log(.warn, "live playlist's media sequence went back: subtitle timeline restarted at 0", [
                ("master", master.proxyTarget), ("media_sequence", String(sequence)),
            ])
        case .followed:
            break
        case nil:
            logger.log(.info, "live playlist: subtitle timeline starts at this window", [
                ("master", master.proxyTarget), ("media_sequence", String(sequence)),
            ])
        }
        return clock
    }

    /// Says once per master that a sequence tag was not a decimal-integer (RFC 8216 §4.2): the subtitle
    /// playlist then writes the default (0), which may not match what a player reads from the video.
    func noteUnreadableTags(_ timeline: VideoTimeline, master: OriginTarget) {
        guard let first = timeline.unreadableTags.first, notices.isFirst("unreadable:\(master.proxyTarget)") else { return }
        logger.log(.warn, "video playlist sequence tag is not a decimal-integer; subtitle playlist writes 0 instead", [
            ("master", master.proxyTarget), ("tag", Sanitized.text(first)),
        ])
    }
}
