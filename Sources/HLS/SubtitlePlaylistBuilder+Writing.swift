extension SubtitlePlaylistBuilder {
    /// The playlist for `durations` (see the type's documentation for the rules).
    static func makePlaylist(durations: [Double], uri: (Int) -> String, shape: SubtitlePlaylistShape) -> [UInt8] {
        let playlistType = shape.playlistType
        var lengths = durations.map { milliseconds(sanitized($0)) }
        // A playlist that still grows may list no segment yet (RFC 8216 §6.2.1: segments are only
        // added); a finished one always gets one, since players refuse an empty VOD playlist.
        if lengths.allSatisfy({ $0 == 0 }), !(lengths.isEmpty && !shape.ended) {
            lengths = [milliseconds(fallbackDuration)]
        }
        // RFC 8216 §4.3.3.1: each EXTINF rounded to the nearest integer must not exceed the target. A
        // finished playlist takes the ceiling of the longest (never a truncation); one that mirrors the
        // video's target (EVENT, live: §6.2.1, it must not change as segments are added) takes exactly
        // the video's, which its EXTINFs rounded to nearest fit, and only a video that breaks that rule
        // gets the least valid one instead.
        let longest = lengths.max() ?? 0
        let target: Int64
        if let mirrored = shape.minimumTargetDuration {
            target = max(1, (longest + 500) / 1000, Int64(clamping: min(mirrored, Int(maximumDuration))))
        } else {
            target = max(1, (longest + 999) / 1000)
        }
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(target)\n#EXT-X-MEDIA-SEQUENCE:\(shape.mediaSequence)\n"
        // RFC 8216 §6.2.2: renditions' discontinuity sequence numbers must agree (AVPlayer stalls otherwise).
        if let sequence = shape.discontinuitySequence {
            text += "#EXT-X-DISCONTINUITY-SEQUENCE:\(sequence)\n"
        }
        // RFC 8216 §6.2.4: the subtitle playlist's type must match the variants'; only the two legal
        // values are written, anything else from an origin is left out.
        if let playlistType, playlistType == "VOD" || playlistType == "EVENT" {
            text += "#EXT-X-PLAYLIST-TYPE:\(playlistType)\n"
        }
        for (index, length) in lengths.enumerated() {
            // RFC 8216 §4.3.2.3: the tag goes before the first segment of the new part.
            if shape.discontinuities.contains(index) { text += "#EXT-X-DISCONTINUITY\n" }
            // RFC 8216 §4.3.2.1: the comma is part of the EXTINF grammar, title or not.
            text += "#EXTINF:\(decimalText(milliseconds: length)),\n"
            text += singleLine(uri(index)) + "\n"
        }
        // RFC 8216 §4.3.3.4: no ENDLIST while the video may still grow (EVENT or live).
        if shape.ended { text += "#EXT-X-ENDLIST\n" }
        return Array(text.utf8)
    }

    /// `seconds` as a finite, non-negative duration no longer than `maximumDuration`.
    static func sanitized(_ seconds: Double) -> Double {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return min(seconds, maximumDuration)
    }

    /// A sanitized duration in whole milliseconds, rounded to nearest. A positive duration never
    /// becomes 0: it is at least 1 ms.
    static func milliseconds(_ seconds: Double) -> Int64 {
        guard seconds > 0 else { return 0 }
        // Half-up by truncation: `rounded()` needs libm, which a module importing only the standard
        // library does not link on Linux. `sanitized` keeps the product far inside Int64.
        let scaled = min(seconds, maximumDuration) * 1000 + 0.5
        return max(1, Int64(scaled))
    }

    /// Milliseconds as seconds with up to three decimals and no trailing zeros (`4`, `3.84`, `0.001`),
    /// never in exponent form. Rounding to a millisecond can never pass the ceiling of the value, so the
    /// printed EXTINF stays within the target duration.
    static func decimalText(milliseconds: Int64) -> String {
        let whole = milliseconds / 1000
        var fraction = milliseconds % 1000
        guard fraction > 0 else { return "\(whole)" }
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let padded = String(repeating: "0", count: digits - String(fraction).count) + String(fraction)
        return "\(whole).\(padded)"
    }

    /// A URI with any CR or LF removed: a line break would end the line early and inject a new one.
    static func singleLine(_ uri: String) -> String {
        String(uri.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
    }
}
