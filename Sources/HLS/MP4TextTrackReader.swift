/// Reads the timed-text tracks of an MP4 file as WebVTT cues, from `stbl` or, in a fragmented file, from
/// its `moof`/`trun` runs (`MP4FragmentSamples`).
///
/// A text track is a `trak` whose `hdlr` is `sbtl` or `text` and whose sample entry is `tx3g` (or
/// QuickTime `text`), or `wvtt` (WebVTT in MP4, ISO/IEC 14496-30; see `MP4WebVTTSample`). Each sample is a 16-bit big-endian length and that many bytes of UTF-8 text,
/// optionally followed by modifier boxes; a length of 0 is a gap (3GPP TS 26.245 §5.17). Bold, italic and
/// underline from `styl` become `<b>`, `<i>`, `<u>`, as ffmpeg does; other modifiers are ignored. A `wvtt`
/// cue repeated in consecutive samples (14496-30 cuts a cue at every other cue's start and end) is
/// joined back into one cue. Times
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
            // `text` handlers carry both tx3g-style text and WebVTT-in-MP4, told apart by the sample entry.
            guard let format = try sampleFormat(stbl: stbl, in: bytes) else { continue }
            guard header.timescale > 0 else { throw .invalidTimescale }
            let table = try MP4SampleTable(stbl: stbl, in: bytes)
            var samples = try table.samples(fileLength: bytes.count)
            // A fragmented file (14496-12 §8.8: `mvex` in `moov`) keeps its samples in `moof`/`trun`.
            if samples.isEmpty, try MP4BoxIterator.first(MP4Box.code("mvex"), in: bytes, range: moov.payload) != nil {
                samples = try MP4FragmentSamples.samples(trackID: header.trackID, moov: moov, in: bytes)
            }
            var cues: [WebVTTCue] = []
            // The wvtt cues shown until the previous sample's end, by content: a repeat extends one.
            var open: [MP4WebVTTSample.CueKey: [Int]] = [:]
            var dropped = MP4TextTrack.Dropped()
            for (number, sample) in samples.enumerated() where sample.duration > 0 {
                guard let (start, end) = try span(of: sample, timescale: UInt64(header.timescale)) else {
                    dropped.note("sample \(number + 1): time plus duration passes 2^64; sample refused")
                    continue
                }
                switch format {
                case .timedText:
                    guard let payload = MP4TextSample.payload(bytes[sample.range]) else { continue }
                    cues.append(WebVTTCue(start: start, end: end, payload: payload))
                case .webVTT:
                    var stillOpen: [MP4WebVTTSample.CueKey: [Int]] = [:]
                    let (sampleCues, problem) = MP4WebVTTSample.cues(bytes, range: sample.range)
                    if let problem { dropped.note("sample \(number + 1): \(problem)") }
                    for var cue in sampleCues {
                        let key = MP4WebVTTSample.CueKey(cue)
                        if let index = open[key]?.popLast() {
                            cues[index].end = end
                            stillOpen[key, default: []].append(index)
                        } else {
                            cue.start = start
                            cue.end = end
                            cues.append(cue)
                            stillOpen[key, default: []].append(cues.count - 1)
                        }
                    }
                    open = stillOpen
                }
            }
            tracks.append(MP4TextTrack(trackID: header.trackID, language: header.language, cues: cues, dropped: dropped))
        }
        return tracks
    }

    private enum SampleFormat {
        /// 3GPP timed text (`tx3g`, QuickTime `text`): length-prefixed text and modifier boxes.
        case timedText
        /// ISO/IEC 14496-30 `wvtt`: boxes holding WebVTT cues.
        case webVTT
    }

    private static func sampleFormat(stbl: MP4Box, in bytes: [UInt8]) throws(MediaError) -> SampleFormat? {
        guard let stsd = try MP4BoxIterator.first(MP4Box.code("stsd"), in: bytes, range: stbl.payload) else {
            throw .missingBox(type: "stsd")
        }
        var reader = try stsd.fullBoxReader(bytes).reader
        try reader.skip(4)  // entry_count
        var entries = MP4BoxIterator(bytes, range: reader.offset..<reader.end)
        guard let entry = try entries.next() else { return nil }
        switch entry.type {
        case MP4Box.code("tx3g"), MP4Box.code("text"): return .timedText
        case MP4Box.code("wvtt"): return .webVTT
        default: return nil
        }
    }

    /// A sample's start and end in milliseconds; nil when its end passes 2^64 ticks (both come from the
    /// file: the sample is refused, the sum never wraps). Throws when a time does not fit in Int64 ms.
    static func span(of sample: MP4SampleTable.Sample, timescale: UInt64) throws(MediaError) -> (start: Int64, end: Int64)? {
        let (sampleEnd, overflow) = sample.time.addingReportingOverflow(sample.duration)
        guard !overflow else { return nil }
        guard let start = milliseconds(sample.time, timescale: timescale), let end = milliseconds(sampleEnd, timescale: timescale) else {
            throw .timestampOverflow
        }
        return (start, end)
    }

    private static func milliseconds(_ time: UInt64, timescale: UInt64) -> Int64? {
        Timestamp.rescale(time, from: timescale, to: 1000, roundingToNearest: true).flatMap { Int64(exactly: $0) }
    }
}
