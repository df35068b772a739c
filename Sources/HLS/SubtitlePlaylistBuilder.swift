/// Writes the media playlists of synthesized subtitle renditions (RFC 8216 §4.3.3).
///
/// Output: `#EXTM3U`, `#EXT-X-VERSION:3` (decimal EXTINF, §7), `#EXT-X-TARGETDURATION` (ceil of the
/// longest segment, at least 1), `#EXT-X-MEDIA-SEQUENCE` (0, or a sliding window's own), `#EXT-X-PLAYLIST-TYPE` when given, one
/// `#EXTINF:<d>,` and URI per segment, `#EXT-X-ENDLIST`; LF line endings. With a `SubtitlePlaylistShape`:
/// `#EXT-X-DISCONTINUITY-SEQUENCE` and `#EXT-X-DISCONTINUITY` where the video has them, and no
/// `#EXT-X-ENDLIST` while the video's playlist has none.
///
/// Durations that are NaN, infinite or negative count as 0 and are capped at `maximumDuration`. A
/// presentation of no length at all (a zero, bad or empty duration list) still gets a valid playlist:
/// one segment of `fallbackDuration` (1 s), since an empty VOD playlist is refused by players; an
/// empty list in a shape that has not ended (EVENT or live with no segment yet) writes no segment.
public enum SubtitlePlaylistBuilder {
    /// The segment length used when there is no presentation length to speak of.
    public static let fallbackDuration: Double = 1
    /// The longest segment written, about 31 years: keeps every computation far from overflow.
    public static let maximumDuration: Double = 1_000_000_000
    /// The most windows `fixedWindows` returns; longer presentations get longer windows.
    public static let maximumWindowCount = 100_000

    /// A playlist with one segment covering the whole presentation (what an in-app resource loader
    /// serves; legal because VOD subtitle renditions may have their own target duration, §6.2.4).
    public static func single(duration: Double, uri: String, playlistType: String? = "VOD") -> [UInt8] {
        makePlaylist(durations: [duration], uri: { _ in uri }, shape: SubtitlePlaylistShape(playlistType: playlistType))
    }

    /// A playlist with one segment covering the whole presentation, in `shape` (its sequence numbers and
    /// a discontinuity before segment 0; `shape.ended` is ignored: a single file is the whole track).
    public static func single(duration: Double, uri: String, shape: SubtitlePlaylistShape) -> [UInt8] {
        var finished = shape
        finished.ended = true
        return makePlaylist(durations: [duration], uri: { _ in uri }, shape: finished)
    }

    /// A playlist with one segment per duration; `uri(i)` names segment `i` (it should end in `.vtt`).
    public static func segmented(durations: [Double], uri: (Int) -> String, playlistType: String? = "VOD") -> [UInt8] {
        makePlaylist(durations: durations, uri: uri, shape: SubtitlePlaylistShape(playlistType: playlistType))
    }

    /// A playlist with one segment per duration, mirroring the video's discontinuities, type and growth.
    public static func segmented(durations: [Double], uri: (Int) -> String, shape: SubtitlePlaylistShape) -> [UInt8] {
        makePlaylist(durations: durations, uri: uri, shape: shape)
    }

    /// Splits `totalDuration` into windows of `segmentDuration` (the last one shorter), for when no
    /// video playlist gives the boundaries. Computed in whole milliseconds, so no window is a rounding
    /// crumb. A bad or non-positive segment duration gives one window; a bad or zero total gives
    /// `[fallbackDuration]`.
    public static func fixedWindows(totalDuration: Double, segmentDuration: Double) -> [Double] {
        let totalMilliseconds = milliseconds(sanitized(totalDuration))
        guard totalMilliseconds > 0 else { return [fallbackDuration] }
        var windowMilliseconds = milliseconds(sanitized(segmentDuration))
        if windowMilliseconds <= 0 { windowMilliseconds = totalMilliseconds }
        let limit = Int64(maximumWindowCount)
        if totalMilliseconds / windowMilliseconds >= limit {
            windowMilliseconds = totalMilliseconds / limit + 1
        }
        var windows: [Double] = []
        var start: Int64 = 0
        while start < totalMilliseconds {
            let length = min(windowMilliseconds, totalMilliseconds - start)
            windows.append(Double(length) / 1000)
            start += length
        }
        return windows
    }

    /// Start time of each segment in milliseconds (`[0, d0, d0+d1, ...]`, one per duration), for the
    /// WebVTT segmenter. Each duration is rounded to the millisecond first, as the playlist prints it,
    /// so the boundaries are exactly where a player places the subtitle segments.
    public static func boundaries(durations: [Double]) -> [Int64] {
        var starts: [Int64] = []
        starts.reserveCapacity(durations.count)
        var start: Int64 = 0
        for duration in durations {
            starts.append(start)
            start = start.addingReportingOverflow(milliseconds(sanitized(duration))).partialValue
            if start < 0 { start = Int64.max / 2 }
        }
        return starts
    }
}
