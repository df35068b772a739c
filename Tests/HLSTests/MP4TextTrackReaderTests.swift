import Foundation
@testable import HLS
import TestSupport
import Testing

@Suite struct MP4TextTrackReaderTests {
    @Test func spanishMovTextMatchesFFmpegsWebVTT() throws {
        let tracks = try MP4TextTrackReader.read(try fixture("subtitles/mp4-with-mov_text.mp4"))
        // `ffprobe -show_entries stream=id,codec_name:stream_tags=language`: mov_text is track 0x2, "spa".
        #expect(tracks.map(\.trackID) == [2])
        #expect(tracks.first?.language == "spa")
        // `ffmpeg -i mp4-with-mov_text.mp4 -map 0:s:0 out.vtt` writes exactly these four cues.
        #expect(tracks.first?.cues == [
            WebVTTCue(start: 500, end: 2500, payload: ["Un patrón de prueba aparece."]),
            WebVTTCue(start: 3000, end: 5750, payload: ["Suena un tono de <i>cuatrocientos cuarenta</i> hercios."]),
            WebVTTCue(start: 6000, end: 8000, payload: ["Esta línea viene de un archivo SRT."]),
            WebVTTCue(start: 8500, end: 11_900, payload: ["La última línea termina antes de los doce segundos."]),
        ])
    }

    @Test func englishAndFrenchTracksMatchFFmpegsWebVTT() throws {
        let tracks = try MP4TextTrackReader.read(try fixture("corpus/mp4/ffmpeg-generated-2x-mov_text-eng-fra.mp4"))
        // ffprobe: mov_text tracks 0x3 "eng" and 0x4 "fra"; cues from `ffmpeg -i ... -map 0:s:0 / 0:s:1 out.vtt`.
        #expect(tracks.map(\.trackID) == [3, 4])
        #expect(tracks.map(\.language) == ["eng", "fra"])
        #expect(tracks.first?.cues == [
            WebVTTCue(start: 500, end: 1500, payload: ["Hello <i>world</i>"]),
            WebVTTCue(start: 1800, end: 2900, payload: ["Second line", "with a break"]),
        ])
        #expect(tracks.last?.cues == [
            WebVTTCue(start: 500, end: 1500, payload: ["Bonjour le monde — déjà vu"]),
            WebVTTCue(start: 1800, end: 2900, payload: ["Ça marche ? Oui !"]),
        ])
    }

    @Test func aTrackBecomesAWebVTTFileLikeFFmpegs() throws {
        let tracks = try MP4TextTrackReader.read(try fixture("corpus/mp4/ffmpeg-generated-2x-mov_text-eng-fra.mp4"))
        let text = String(decoding: try #require(tracks.first).makeWebVTTDocument().serialized(), as: UTF8.self)
        #expect(text == "WEBVTT\n\n00:00:00.500 --> 00:00:01.500\nHello <i>world</i>\n\n00:00:01.800 --> 00:00:02.900\nSecond line\nwith a break\n\n")
    }

    @Test func aFragmentedTextTrackIsReadFromItsFragments() throws {
        // `ffmpeg -i mp4-with-wvtt.vtt -c:s mov_text -f mp4 -movflags frag_keyframe+empty_moov+default_base_moof`:
        // an empty stbl, `mvex` in `moov`, the samples in `moof`/`trun` (14496-12 §8.8).
        // ffmpeg's fragmenter drops the source's leading 1 s gap, so the file's cues start 1 s before the
        // .vtt's: `ffprobe -show_entries packet=pts,duration` gives pts 0, 1, 3 (a gap), 4.25, 5, 6.125 s,
        // and trun durations of 1, 2, 1.25, 0.75, 1.125 s (timescale 10^6); tfdt is 0.
        let tracks = try MP4TextTrackReader.read(fixture("subtitles/mp4-fragmented-mov_text.mp4"))
        #expect(tracks.map(\.cues) == [[
            WebVTTCue(start: 0, end: 1000, payload: ["Hello <b>world</b> &amp; co"]),
            WebVTTCue(start: 1000, end: 3000, payload: ["Overlapping", "second line"]),
            WebVTTCue(start: 4250, end: 5000, payload: ["<i>Last</i> one"]),
            WebVTTCue(start: 5000, end: 6125, payload: ["Straight after, with --&gt; inside"]),
        ]])
    }

    @Test func aFragmentedTextTrackCutAnywhereGivesCuesOrATypedError() throws {
        let bytes = try fixture("subtitles/mp4-fragmented-mov_text.mp4")
        for length in 0..<bytes.count {
            do {
                _ = try MP4TextTrackReader.read(Array(bytes.prefix(length)))
            } catch {
                // A cut file is short, or a box runs past the end, or the box holding the rest is gone:
                // never a timing or nesting error, which would mean the cut bytes were misread.
                switch error {
                case .truncated, .invalidBoxSize, .missingBox: continue
                default: Issue.record("a cut at \(length) bytes gave \(error)")
                }
            }
        }
    }

    @Test func aTrunClaimingMoreSamplesThanItHoldsIsRefusedBeforeAllocating() throws {
        var bytes = try fixture("subtitles/mp4-fragmented-mov_text.mp4")
        let trun = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("trun".utf8) })
        // After the type: version and flags (4 bytes), then sample_count.
        for offset in trun + 8..<trun + 12 { bytes[offset] = 0xFF }
        #expect(throws: MediaError.truncated) { try MP4TextTrackReader.read(bytes) }
    }

    @Test func runsThatReuseOneRunsDataCannotMultiplyTheSampleCount() throws {
        // trex: track 1, description 1, default duration 1, default size 0, flags 0.
        let trex = MP4Fixture.box("trex", [0, 0, 0, 0] + MP4Fixture.be32(1) + MP4Fixture.be32(1) + MP4Fixture.be32(1)
                                  + MP4Fixture.be32(0) + MP4Fixture.be32(0))
        let moov = MP4Fixture.box("moov", MP4Fixture.box("mvex", trex))
        let tfhd = MP4Fixture.box("tfhd", [0, 0, 0, 0] + MP4Fixture.be32(1))
        // 2,000 runs of 4,000 all-default samples each, every run's data_offset pointing at the same place:
        // each run alone fits the file, together they would be 8 million samples.
        let trun = MP4Fixture.box("trun", [0, 0, 0, 1] + MP4Fixture.be32(4_000) + MP4Fixture.be32(0))
        let traf = MP4Fixture.box("traf", tfhd + Array([[UInt8]](repeating: trun, count: 2_000).joined()))
        let file = moov + MP4Fixture.box("moof", traf)
        let box = try #require(try MP4BoxIterator.first(MP4Box.code("moov"), in: file, range: 0..<file.count))
        #expect(throws: MediaError.truncated) { try MP4FragmentSamples.samples(trackID: 1, moov: box, in: file) }
    }

    @Test func mediaFilesWithoutTextTracksGiveNone() throws {
        #expect(try MP4TextTrackReader.read(try fixture("vod-fmp4/init.mp4")).isEmpty)
    }

    @Test func textIsEscapedAndStylesBecomeTags() throws {
        // One sample: "a<b & c" with bold+italic on characters 2..<7 ("b & c" after escaping "<b").
        let text = Array("a<b & c".utf8)
        let styl = MP4Fixture.box("styl", MP4Fixture.be16(1) + MP4Fixture.be16(2) + MP4Fixture.be16(7)
                                  + MP4Fixture.be16(1) + [0x03, 0x12] + MP4Fixture.be32(0xFFFFFFFF))
        let sample = MP4Fixture.be16(UInt16(text.count)) + text + styl
        #expect(MP4TextSample.payload(sample[...]) == ["a&lt;<b><i>b &amp; c</i></b>"])
        #expect(MP4TextSample.payload((MP4Fixture.be16(0) + text)[...]) == nil)
        #expect(MP4TextSample.payload((MP4Fixture.be16(500) + text)[...]) == ["a&lt;b &amp; c"])
    }

    @Test func entryCountsLargerThanTheirBoxAreRefusedBeforeAllocating() throws {
        // stts claims 2^32-1 entries in a 16-byte payload.
        let stts = MP4Fixture.box("stts", [0, 0, 0, 0] + MP4Fixture.be32(.max) + MP4Fixture.be32(1) + MP4Fixture.be32(1))
        let stsd = MP4Fixture.box("stsd", [0, 0, 0, 0] + MP4Fixture.be32(1) + MP4Fixture.box("tx3g", Array(repeating: 0, count: 30)))
        let stbl = MP4Fixture.box("stbl", stsd + stts)
        let minf = MP4Fixture.box("minf", stbl)
        let file = MP4Fixture.box("moov", MP4Fixture.trak(trackID: 1, timescale: 1000, handler: "sbtl", extra: minf))
        #expect(throws: MediaError.truncated) { try MP4TextTrackReader.read(file) }
    }
}
