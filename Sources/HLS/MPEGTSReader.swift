/// Reads the first presentation timestamp of an MPEG-2 transport stream segment, for X-TIMESTAMP-MAP.
///
/// ISO/IEC 13818-1: 188-byte packets starting with 0x47; the PAT (PID 0) names the PMT PIDs, the PMT
/// names the elementary streams. The answer is the earliest of the first PTS of each audio and video
/// stream, as hls.js does when it aligns WebVTT with media. A prefix of the segment is enough. Sections
/// are read from the packet that starts them (PAT and PMT fit in one packet in practice).
public enum MPEGTSReader {
    static let packetLength = 188
    static let syncByte: UInt8 = 0x47

    /// The earliest first PTS (90 kHz ticks, 33-bit) over the audio and video streams of `bytes`.
    public static func firstPTS(_ bytes: [UInt8]) throws(MediaError) -> Int64 {
        var state = State()
        guard var position = syncPosition(bytes, from: 0) else { throw .notTransportStream }
        while position + packetLength <= bytes.count {
            guard bytes[position] == syncByte else {
                // Lost sync (a corrupt or spliced packet): look for the next packet start.
                guard let next = syncPosition(bytes, from: position + 1) else { break }
                position = next
                continue
            }
            do {
                try state.read(packet: ByteReader(bytes, range: position..<(position + packetLength)))
            } catch {
                // A malformed packet is skipped, as a demuxer does: the next ones may still be fine.
            }
            if state.hasEveryStream { break }
            position += packetLength
        }
        guard let earliest = state.earliestPTS() else { throw .noTimestamp }
        return earliest
    }

    /// The first offset at or after `start` holding a sync byte that is followed, one packet later, by
    /// another (or by the end of the bytes).
    static func syncPosition(_ bytes: [UInt8], from start: Int) -> Int? {
        var position = start
        while position + packetLength <= bytes.count {
            let next = position + packetLength
            if bytes[position] == syncByte, next >= bytes.count || bytes[next] == syncByte { return position }
            position += 1
        }
        return nil
    }

    /// The earliest of several 33-bit PTS values, allowing for one wrap between them (§2.4.3.7).
    static func earliest(_ values: [Int64]) -> Int64? {
        guard let low = values.min(), let high = values.max() else { return nil }
        guard high - low > Timestamp.ptsModulus / 2 else { return low }
        // Values far apart straddle the wrap: the small ones come after it.
        let unwrapped = values.map { $0 < Timestamp.ptsModulus / 2 ? $0 + Timestamp.ptsModulus : $0 }
        return unwrapped.min().map { $0 % Timestamp.ptsModulus }
    }
}
