/// A one-variant master made around a media playlist, so a player that needs a master (AVPlayer shows
/// subtitles only from one) gets a SUBTITLES group to attach (RFC 8216 §4.3.4.2).
public enum WrappedMaster {
    /// Where a wrapped variant's BANDWIDTH came from, as logs and docs name it.
    public enum BandwidthSource: String, Sendable {
        /// The largest EXT-X-BITRATE of the media playlist (RFC 8216 §4.3.2.8, kbit/s).
        case bitrateTag = "EXT-X-BITRATE"
        /// The largest bits per second of the first segments, from their sizes and EXTINF durations.
        case measuredSegments = "measured segment sizes"
        /// The subtitle set's `wrap_bandwidth`.
        case configured = "wrap_bandwidth"
    }

    /// The most bits per second a wrapped variant claims: past it a value is not believable, and the
    /// arithmetic stays far from Int's limits.
    public static let maximumBandwidth = 1_000_000_000_000

    /// The master: one EXT-X-STREAM-INF with `bandwidth` (and CODECS only when known: RFC 8216
    /// §4.3.4.2 makes it a SHOULD, and a wrong value is worse than none) pointing at `variantURI`.
    public static func make(bandwidth: Int, codecs: String? = nil, variantURI: String) -> [UInt8] {
        var attributes = "BANDWIDTH=\(min(max(bandwidth, 1), maximumBandwidth))"
        if let codecs, AttributeList.canQuote(codecs), !codecs.isEmpty { attributes += ",CODECS=\"\(codecs)\"" }
        return Array("#EXTM3U\n#EXT-X-STREAM-INF:\(attributes)\n\(variantURI)\n".utf8)
    }

    /// The largest EXT-X-BITRATE in the playlist, in bits/s; nil when there is none. A value that is not
    /// a decimal-integer is ignored (it says nothing), as is one past `maximumBandwidth`.
    public static func bitrateBandwidth(_ playlist: Playlist) -> Int? {
        var largest: Int?
        for line in playlist.lines where line.tagName == "EXT-X-BITRATE" {
            guard let text = line.tagValue.map({ Substring($0).trimmingPlaylistWhitespace() }), !text.isEmpty,
                  text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), text.utf8.count <= 12, let kilobits = Int(text)
            else { continue }
            let bits = kilobits * 1000  // at most 12 digits times 1000: no overflow
            guard bits > 0, bits <= maximumBandwidth else { continue }
            largest = max(largest ?? 0, bits)
        }
        return largest
    }

    /// `bits` rounded up to the next step of 2^k or 3 × 2^(k−1) bits/s (…, 524288, 786432, 1048576, …):
    /// at most 1.5 times the value, so BANDWIDTH stays an upper bound (RFC 8216 §4.3.4.2),
    /// and coarse enough that instances reading a live window's segments at different moments agree.
    public static func coarseBandwidth(_ bits: Int) -> Int {
        guard bits > 1 else { return max(bits, 1) }
        var step = 1
        while step < bits {
            let half = step + step / 2
            if step > 1, half >= bits { return min(half, maximumBandwidth) }
            guard step <= maximumBandwidth / 2 else { return maximumBandwidth }
            step *= 2
        }
        return min(step, maximumBandwidth)
    }

    /// The peak bit rate of measured segments (RFC 8216 §4.3.4.2: BANDWIDTH is the peak segment bit
    /// rate): the largest `bytes * 8 / duration`, rounded up. Segments without a positive duration or
    /// with a negative size are skipped; nil when none is left.
    public static func measuredBandwidth(_ segments: [(bytes: Int, duration: Double)]) -> Int? {
        var largest: Double?
        for segment in segments where segment.bytes >= 0 && segment.duration > 0 && segment.duration.isFinite {
            let rate = (Double(segment.bytes) * 8 / segment.duration).rounded(.up)
            largest = max(largest ?? 0, rate)
        }
        guard let largest, largest >= 1 else { return nil }
        return Int(min(largest, Double(maximumBandwidth)))
    }
}
