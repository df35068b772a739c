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
        guard let state = read(bytes, isWhole: true) else { throw .notTransportStream }
        guard let earliest = state.earliestPTS() else { throw .noTimestamp }
        return earliest
    }

    /// `firstPTS` of the whole segment, read from its first bytes when they settle it: every audio
    /// and video stream the PMT lists has had its first PTS in them, and no packet boundary was judged
    /// at their end. Nil when more bytes could change the answer (or make one), so a reader streaming
    /// the segment can stop as soon as this gives a value, and still read it whole otherwise.
    public static func firstPTS(ofPrefix bytes: [UInt8]) -> Int64? {
        guard let state = read(bytes, isWhole: false), state.hasEveryStream else { return nil }
        return state.earliestPTS()
    }

    /// Reads packets from the first sync until every stream has its first PTS or the bytes end; nil
    /// when no sync is found. Of a prefix (`isWhole` false), a sync is taken only when the packet after
    /// it is in the bytes too, so the packets read are the ones the whole segment's reading reads.
    private static func read(_ bytes: [UInt8], isWhole: Bool) -> State? {
        var state = State()
        guard var position = syncPosition(bytes, from: 0, isWhole: isWhole) else { return nil }
        while position + packetLength <= bytes.count {
            guard bytes[position] == syncByte else {
                // Lost sync (a corrupt or spliced packet): look for the next packet start.
                guard let next = syncPosition(bytes, from: position + 1, isWhole: isWhole) else { break }
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
        return state
    }

    /// The first offset at or after `start` holding a sync byte that is followed, one packet later, by
    /// another (or, in a whole segment, by its end). In a prefix, a candidate whose next packet would
    /// start past the bytes is not judged: nil.
    static func syncPosition(_ bytes: [UInt8], from start: Int, isWhole: Bool = true) -> Int? {
        var position = start
        while position + packetLength <= bytes.count {
            let next = position + packetLength
            if bytes[position] == syncByte {
                if next >= bytes.count { return isWhole ? position : nil }
                if bytes[next] == syncByte { return position }
            }
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
