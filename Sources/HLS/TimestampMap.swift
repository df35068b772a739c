/// The `X-TIMESTAMP-MAP` header of an HLS WebVTT file (RFC 8216 §3.5): which media time a cue time maps to.
public struct TimestampMap: Sendable, Equatable {
    /// The MPEG-2 timestamp, in 90 kHz ticks, that `local` corresponds to.
    public var mpegts: Int64
    /// The cue time, in milliseconds, that `mpegts` corresponds to.
    public var local: Int64

    /// Makes a map; `local` defaults to cue time 0.
    public init(mpegts: Int64, local: Int64 = 0) {
        self.mpegts = mpegts
        self.local = local
    }

    /// The header line, `X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000`.
    public var headerLine: String {
        "X-TIMESTAMP-MAP=MPEGTS:\(mpegts),LOCAL:\(WebVTTTimestamp.string(local))"
    }

    /// Reads a header line in either attribute order; nil when the line is not a well-formed map.
    public init?(headerLine: String) {
        let prefix = "X-TIMESTAMP-MAP="
        guard headerLine.hasPrefix(prefix) else { return nil }
        var mpegts: Int64?
        var local: Int64?
        for part in headerLine.dropFirst(prefix.count).split(separator: ",") {
            let field = part.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            if field.starts(with: "MPEGTS:".utf8) {
                let digits = field.dropFirst(7).prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                mpegts = Int64(String(decoding: digits, as: UTF8.self))
            } else if field.starts(with: "LOCAL:".utf8) {
                let time = Array(field.dropFirst(6))[...]
                var index = time.startIndex
                if let value = WebVTTTimestamp.parse(time, at: &index) { local = value }
            }
        }
        guard let mpegts, let local, mpegts >= 0 else { return nil }
        self.init(mpegts: mpegts, local: local)
    }
}
