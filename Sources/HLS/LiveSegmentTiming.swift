/// Where live segment N of a sliding window sits on a subtitle track's cue timeline: a pure function of
/// what any proxy instance reads from the origin when asked (N, EXT-X-TARGETDURATION, the segment's
/// EXTINF and first PTS), so every instance, every viewer and every restart serve the same file for N.
///
/// RFC 8216 §6.2.1, §6.3.2: a segment keeps its media sequence number while listed; §3.5: the
/// X-TIMESTAMP-MAP of each WebVTT segment maps its cue times to the PTS of the video it plays with.
public enum LiveSegmentTiming {
    /// The span `[start, end)` in milliseconds of segment `sequence` on the nominal timeline (no epoch):
    /// it starts at `sequence × targetDuration` seconds and lasts its EXTINF `duration` when that is
    /// known and shorter (a short segment's window ends where its media does, so no cue is mapped past
    /// it), else one target duration (never longer: the next window starts there). Nil when that would
    /// pass Int64 milliseconds.
    public static func nominal(sequence: UInt64, targetDuration: Int, duration: Double? = nil) -> (start: Int64, end: Int64)? {
        let target = Int64(max(1, min(targetDuration, 86_400))) * 1000
        guard sequence <= UInt64(Int64.max) else { return nil }
        let (start, overflow) = Int64(sequence).multipliedReportingOverflow(by: target)
        guard !overflow, start <= Int64.max - target else { return nil }
        var length = target
        if let duration, duration.isFinite, duration > 0 {
            length = min(target, max(1, SubtitlePlaylistBuilder.milliseconds(SubtitlePlaylistBuilder.sanitized(duration))))
        }
        return (start, start + length)
    }

    /// The X-TIMESTAMP-MAP for a segment whose first PTS `pts` plays at cue time `local` ms. RFC 8216
    /// §3.5: LOCAL is a WebVTT timestamp, which cannot be negative; a segment before the epoch's cue
    /// time 0 (`local` < 0) maps the same instants as `MPEGTS=pts+k, LOCAL=0`, k the 90 kHz ticks of
    /// −local, modulo 2^33 (ISO/IEC 13818-1: a PTS is 33 bits). An MPEGTS is written in 33 bits too.
    public static func map(pts: Int64, local: Int64) -> TimestampMap {
        let modulus: Int64 = 1 << 33
        let ticks = pts & (modulus - 1)
        guard local < 0 else { return TimestampMap(mpegts: ticks, local: local) }
        // −local ms as ticks modulo 2^33: the millisecond count is reduced first so the product fits.
        let shift = ((local.magnitude % UInt64(modulus)) * 90) % UInt64(modulus)
        return TimestampMap(mpegts: (ticks + Int64(shift)) % modulus, local: 0)
    }

    /// The span `[start, end)` in milliseconds of a segment whose first PTS is `pts` and whose EXTINF is
    /// `duration` seconds, when the track's map `epoch` says which cue time PTS `epoch.mpegts` is:
    /// start = epoch.local + (pts − epoch.mpegts) / 90 ms, the PTS difference taken across a 33-bit wrap.
    public static func onEpoch(_ epoch: TimestampMap, pts: Int64, duration: Double) -> (start: Int64, end: Int64) {
        let start = Timestamp.saturatingAdd(epoch.local, nearestTickDelta(from: epoch.mpegts, to: pts) / 90)
        return (start, Timestamp.saturatingAdd(start, SubtitlePlaylistBuilder.milliseconds(SubtitlePlaylistBuilder.sanitized(duration))))
    }

    /// The PTS that cue time `onEpoch(epoch, pts:).start` plays at, exactly: that start is whole
    /// milliseconds, so `pts` less the ticks of the part millisecond dropped (up to 89), modulo 2^33.
    /// Mapping the start to `pts` itself would place every cue that many ticks early; with this, cue
    /// time t maps to epoch.mpegts + (t − epoch.local) × 90 in every segment, as RFC 8216 §3.5 intends.
    public static func epochStartTicks(_ epoch: TimestampMap, pts: Int64) -> Int64 {
        let modulus: Int64 = 1 << 33
        let dropped = nearestTickDelta(from: epoch.mpegts, to: pts) % 90
        // Both terms within ±2^33, so the difference cannot overflow; the mask takes it modulo 2^33.
        return ((pts & (modulus - 1)) - dropped) & (modulus - 1)
    }

    /// `to − from` in 90 kHz ticks modulo 2^33 (ISO/IEC 13818-1 PTS), taken to the nearer side: a PTS
    /// just past a wrap is a little after the epoch, not 26.5 hours before it.
    public static func nearestTickDelta(from: Int64, to: Int64) -> Int64 {
        let modulus: Int64 = 1 << 33
        // Masked to 33 bits first, so the difference cannot overflow whatever was passed.
        var delta = ((to & (modulus - 1)) - (from & (modulus - 1))) % modulus
        if delta < 0 { delta += modulus }
        return delta >= modulus / 2 ? delta - modulus : delta
    }
}
