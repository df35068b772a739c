import Foundation
@testable import HLS
import TestSupport
import Testing

@Suite struct SRTConverterTests {
    @Test func spanishSampleConvertsWithCRLFAndAccents() throws {
        let document = try SRTConverter.webVTT(from: try fixture("subtitles/es.srt"))
        // Same cues as `ffmpeg -i es.srt out.vtt` gives (4 cues), indexes dropped.
        #expect(document.cues == [
            WebVTTCue(start: 500, end: 2500, payload: ["Un patrón de prueba aparece."]),
            WebVTTCue(start: 3000, end: 5750, payload: ["Suena un tono de <i>cuatrocientos cuarenta</i> hercios."]),
            WebVTTCue(start: 6000, end: 8000, payload: ["Esta línea viene de un archivo SRT."]),
            WebVTTCue(start: 8500, end: 11_900, payload: ["La última línea termina antes de los doce segundos."]),
        ])
        #expect(String(decoding: document.serialized(), as: UTF8.self).hasPrefix(
            "WEBVTT\n\n00:00:00.500 --> 00:00:02.500\nUn patrón de prueba aparece.\n\n"))
    }

    @Test func utf16LittleEndianWithBOMConverts() throws {
        let bytes = try fixture("corpus/srt/utf16le-bom.srt")
        #expect(bytes.starts(with: [0xFF, 0xFE]))
        let document = try SRTConverter.webVTT(from: bytes)
        // `ffmpeg -i utf16le-bom.srt out.vtt` gives 7 cues, the first 00:06.500 --> 00:09.000.
        #expect(document.cues.count == 7)
        #expect(document.cues.first == WebVTTCue(start: 6500, end: 9000,
                                                 payload: ["About 2 months ago I found myself on", "the comment section of YouTube"]))
    }

    @Test func utf8BOMFileWithoutCueNumbersConverts() throws {
        let document = try SRTConverter.webVTT(from: try fixture("corpus/srt/bom-no-cue-indexes.srt"))
        // `grep -c -- '-->'` gives 7; ffmpeg 5.1 refuses this file.
        #expect(document.cues.count == 7)
        #expect(document.cues[1].payload == ["And I was commenting,", "unfortunately I was commenting,",
                                             "on a video about the famous Ayn Rand"])
        #expect(document.cues.allSatisfy { $0.id == nil })
    }

    @Test func capabilityTesterKeepsEveryCueAndItsMarkup() throws {
        let document = try SRTConverter.webVTT(from: try fixture("corpus/srt/capability-tester-bom-crlf-font-tags.srt"))
        // `ffmpeg -i capability_tester.srt out.vtt` gives 37 cues, as does `grep -c -- '-->'`.
        #expect(document.cues.count == 37)
        #expect(document.cues[0].start == 0 && document.cues[0].end == 0)
        #expect(document.cues[1].payload[1] == "<b><i>Use VLC 1.1 or higher as reference for most things and MPC Home Cinema for others</i></b>")
        #expect(document.cues[4].payload[0] == "This should be an E with an accent: È")
        #expect(document.cues.allSatisfy { $0.settings.isEmpty })
        let reparsed = try WebVTTDocument.parse(document.serialized())
        #expect(reparsed == document)
    }

    @Test func windows1252BytesFallBackWhenNotUTF8() throws {
        // "1\n00:00:01,000 --> 00:00:02,000\nCafé “quoted” – €5\n" in Windows-1252.
        var bytes = Array("1\n00:00:01,000 --> 00:00:02,000\nCaf".utf8)
        bytes += [0xE9, 0x20, 0x93] + Array("quoted".utf8) + [0x94, 0x20, 0x96, 0x20, 0x80] + Array("5\n".utf8)
        let document = try SRTConverter.webVTT(from: bytes)
        #expect(document.cues.first?.payload == ["Caf\u{E9} \u{201C}quoted\u{201D} \u{2013} \u{20AC}5"])
    }

    @Test func commasOutsideTimingLinesStay() throws {
        let text = "1\n00:00:01,000 --> 00:00:02,500\nWell, yes, 1,000 times.\n"
        let document = try SRTConverter.webVTT(from: Array(text.utf8))
        #expect(document.cues == [WebVTTCue(start: 1000, end: 2500, payload: ["Well, yes, 1,000 times."])])
    }

    @Test func aMissingBlankLineBeforeACueNumberIsTolerated() throws {
        let text = "1\n00:00:01,000 --> 00:00:02,000\nfirst\n2\n00:00:03,000 --> 00:00:04,000\nsecond\n   \n3\n00:00:05,000 --> 00:00:06,000\nthird"
        let document = try SRTConverter.webVTT(from: Array(text.utf8))
        #expect(document.cues.map(\.payload) == [["first"], ["second"], ["third"]])
    }

    @Test func emptyInputIsAnEmptyDocumentAndTextWithoutCuesIsAnError() throws {
        #expect(try SRTConverter.webVTT(from: []) == WebVTTDocument())
        #expect(try SRTConverter.webVTT(from: Array(" \r\n\n".utf8)) == WebVTTDocument())
        #expect(throws: SubtitleError.noSubRipCues) { try SRTConverter.webVTT(from: Array("<html>404</html>".utf8)) }
    }
}
