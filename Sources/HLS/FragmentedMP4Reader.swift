/// Reads the first media time of a fragmented MP4 (CMAF) segment in 90 kHz ticks, for X-TIMESTAMP-MAP.
///
/// RFC 8216 §3.5 with ISO/IEC 14496-12: each track's timescale comes from the init segment
/// (`moov/trak/mdia/mdhd`, keyed by `tkhd` track_ID); each track's first time from the media segment's
/// first `moof/traf/tfdt` baseMediaDecodeTime. The answer is the earliest over tracks of
/// `tfdt * 90000 / timescale` (rounded down), as hls.js computes its initPTS. Edit lists (`elst`) are
/// ignored, as hls.js ignores them. The value is not reduced modulo 2^33. Reading stops once every track
/// of the init segment has its first time, so a prefix of the media segment holding its first `moof` is
/// enough (`mediaSegmentPrefix:` says when one is).
public enum FragmentedMP4Reader {
    /// The earliest track start of `mediaSegment`, in 90 kHz ticks.
    public static func firstPTS(initSegment: [UInt8], mediaSegment: [UInt8]) throws(MediaError) -> Int64 {
        let timescales = try trackTimescales(initSegment)
        return try earliest(try firstTimes(mediaSegment, tracks: timescales, isWhole: true), timescales: timescales)
    }

    /// `firstPTS` of the whole media segment, read from its first bytes when they settle it: every
    /// track of the init segment has its first `tfdt` in a `moof` that lies wholly in them. Nil when
    /// more bytes could change the answer (or make one); throws only for the init segment.
    public static func firstPTS(initSegment: [UInt8], mediaSegmentPrefix prefix: [UInt8]) throws(MediaError) -> Int64? {
        let timescales = try trackTimescales(initSegment)
        guard let times = try? firstTimes(prefix, tracks: timescales, isWhole: false), times.count == timescales.count else { return nil }
        return try? earliest(times, timescales: timescales)
    }

    /// The first decode time of each track in the `moof`s of `mediaSegment`, read until every track of
    /// the init segment has one. Of a whole segment, a box cut off after some were read ends the reading
    /// (a cut-off segment, or an mdat that claims more than arrived, still has its moofs); of a prefix,
    /// it throws, as there the cut is only where the bytes stopped arriving, and a moof reaching the
    /// prefix's end is not read.
    private static func firstTimes(_ mediaSegment: [UInt8], tracks: [UInt32: UInt32], isWhole: Bool) throws(MediaError) -> [UInt32: UInt64] {
        var firstTimes: [UInt32: UInt64] = [:]
        var boxes = MP4BoxIterator(mediaSegment)
        while firstTimes.count < tracks.count {
            let box: MP4Box?
            do {
                box = try boxes.next()
            } catch {
                if firstTimes.isEmpty || !isWhole { throw error }
                break
            }
            guard let box else { break }
            guard box.type == MP4Box.code("moof") else { continue }
            // A moof that runs to the prefix's end may be cut there, or be a size-0 box whose end is
            // the whole segment's: either way, more bytes could change what it holds.
            if !isWhole, box.payload.upperBound >= mediaSegment.count { break }
            for traf in try MP4BoxIterator.boxes(mediaSegment, range: box.payload) where traf.type == MP4Box.code("traf") {
                guard let (trackID, time) = try decodeTime(of: traf, in: mediaSegment),
                      tracks[trackID] != nil, firstTimes[trackID] == nil else { continue }
                firstTimes[trackID] = time
            }
        }
        return firstTimes
    }

    /// The earliest of the tracks' first times, in 90 kHz ticks.
    private static func earliest(_ firstTimes: [UInt32: UInt64], timescales: [UInt32: UInt32]) throws(MediaError) -> Int64 {
        var earliest: Int64?
        for (trackID, time) in firstTimes {
            guard let timescale = timescales[trackID] else { continue }
            guard let ticks = Timestamp.rescale(time, from: UInt64(timescale), to: Timestamp.mpegTicksPerSecond,
                                                roundingToNearest: false),
                  let value = Int64(exactly: ticks) else { throw .timestampOverflow }
            earliest = min(earliest ?? value, value)
        }
        guard let earliest else { throw .noTimestamp }
        return earliest
    }

    /// Timescale by track_ID, from each `moov/trak` of an init segment.
    static func trackTimescales(_ bytes: [UInt8]) throws(MediaError) -> [UInt32: UInt32] {
        guard let moov = try MP4BoxIterator.first(MP4Box.code("moov"), in: bytes) else {
            throw .missingBox(type: "moov")
        }
        var timescales: [UInt32: UInt32] = [:]
        for trak in try MP4BoxIterator.boxes(bytes, range: moov.payload) where trak.type == MP4Box.code("trak") {
            let header = try MP4TrackHeader(trak: trak, in: bytes)
            guard header.timescale > 0 else { throw .invalidTimescale }
            timescales[header.trackID] = header.timescale
        }
        guard !timescales.isEmpty else { throw .missingBox(type: "trak") }
        return timescales
    }

    /// The track_ID (`tfhd`) and baseMediaDecodeTime (`tfdt`) of one `traf`; nil without a `tfdt`.
    private static func decodeTime(of traf: MP4Box, in bytes: [UInt8]) throws(MediaError) -> (UInt32, UInt64)? {
        guard let tfhd = try MP4BoxIterator.first(MP4Box.code("tfhd"), in: bytes, range: traf.payload) else {
            throw .missingBox(type: "tfhd")
        }
        var trackHeader = try tfhd.fullBoxReader(bytes).reader
        let trackID = try trackHeader.readUInt32()
        guard let tfdt = try MP4BoxIterator.first(MP4Box.code("tfdt"), in: bytes, range: traf.payload) else {
            return nil
        }
        var (version, reader) = try tfdt.fullBoxReader(bytes)
        // §8.8.12: version 1 holds a 64-bit time, version 0 a 32-bit one.
        let time = version == 1 ? try reader.readUInt64() : UInt64(try reader.readUInt32())
        return (trackID, time)
    }
}
