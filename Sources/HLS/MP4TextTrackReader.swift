/// Reads the timed-text tracks of a (non-fragmented) MP4 file as WebVTT cues.
///
/// A text track is a `trak` whose `hdlr` is `sbtl` or `text` and whose sample entry is `tx3g` (or
/// QuickTime `text`). Each sample is a 16-bit big-endian length and that many bytes of UTF-8 text,
/// optionally followed by modifier boxes; a length of 0 is a gap (3GPP TS 26.245 §5.17). Bold, italic and
/// underline from `styl` become `<b>`, `<i>`, `<u>`, as ffmpeg does; other modifiers are ignored. Times
/// come from `stts` and the `mdhd` timescale, rounded to the nearest millisecond; edit lists are ignored.
public enum MP4TextTrackReader {
    /// Every text track in the file, in file order; a file without one gives an empty array.
    public static func read(_ bytes: [UInt8]) throws(MediaError) -> [MP4TextTrack] {
        guard let moov = try MP4BoxIterator.first(MP4Box.code("moov"), in: bytes) else {
            throw .missingBox(type: "moov")
        }
        var tracks: [MP4TextTrack] = []
        for trak in try MP4BoxIterator.boxes(bytes, range: moov.payload) where trak.type == MP4Box.code("trak") {
            let header = try MP4TrackHeader(trak: trak, in: bytes)
            guard header.handler == MP4Box.code("sbtl") || header.handler == MP4Box.code("text") else { continue }
            let path = ["mdia", "minf", "stbl"].map(MP4Box.code)
            guard let stbl = try MP4BoxIterator.descendant(path, in: bytes, range: trak.payload) else {
                throw .missingBox(type: "stbl")
            }
            // `text` handlers also carry WebVTT-in-MP4 (`wvtt`), whose samples are boxes, not length-prefixed text.
            guard try isTimedText(stbl: stbl, in: bytes) else { continue }
            guard header.timescale > 0 else { throw .invalidTimescale }
            let table = try MP4SampleTable(stbl: stbl, in: bytes)
            var cues: [WebVTTCue] = []
            for sample in try table.samples(fileLength: bytes.count) where sample.duration > 0 {
                guard let payload = MP4TextSample.payload(bytes[sample.range]) else { continue }
                let timescale = UInt64(header.timescale)
                guard let start = milliseconds(sample.time, timescale: timescale),
                      let end = milliseconds(sample.time &+ sample.duration, timescale: timescale) else {
                    throw .timestampOverflow
                }
                cues.append(WebVTTCue(start: start, end: end, payload: payload))
            }
            tracks.append(MP4TextTrack(trackID: header.trackID, language: header.language, cues: cues))
        }
        return tracks
    }

    private static func isTimedText(stbl: MP4Box, in bytes: [UInt8]) throws(MediaError) -> Bool {
        guard let stsd = try MP4BoxIterator.first(MP4Box.code("stsd"), in: bytes, range: stbl.payload) else {
            throw .missingBox(type: "stsd")
        }
        var reader = try stsd.fullBoxReader(bytes).reader
        try reader.skip(4)  // entry_count
        var entries = MP4BoxIterator(bytes, range: reader.offset..<reader.end)
        guard let entry = try entries.next() else { return false }
        return entry.type == MP4Box.code("tx3g") || entry.type == MP4Box.code("text")
    }

    private static func milliseconds(_ time: UInt64, timescale: UInt64) -> Int64? {
        Timestamp.rescale(time, from: timescale, to: 1000, roundingToNearest: true).flatMap { Int64(exactly: $0) }
    }
}
