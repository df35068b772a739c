import Foundation
@testable import HLS
import TestSupport
import Testing

private func webVTTFixturePaths() throws -> [String] {
    let folders = ["subtitles", "corpus/webvtt"]
    return try folders.flatMap { folder in
        try FileManager.default.contentsOfDirectory(atPath: Fixtures.url(folder).path)
            .filter { $0.hasSuffix(".vtt") }.sorted().map { "\(folder)/\($0)" }
    }
}

@Suite struct WebVTTDocumentTests {
    @Test func everyWebVTTFixtureParsesAndSurvivesARoundTrip() throws {
        let paths = try webVTTFixturePaths()
        #expect(paths.count == 18)
        for path in paths {
            let document = try WebVTTDocument.parse(try fixture(path))
            let reparsed = try WebVTTDocument.parse(document.serialized())
            #expect(reparsed == document, "\(path)")
        }
    }

    @Test func cueCountsMatchTheTimingLinesInEachFixture() throws {
        // `grep -c -- '-->' FILE` for each file: every timing line in these fixtures is well-formed.
        let expected = [
            "subtitles/empty.vtt": 0, "subtitles/en-forced-bom-crlf.vtt": 2, "subtitles/en.vtt": 4,
            "subtitles/fr.vtt": 4, "subtitles/long-2h.vtt": 1799, "subtitles/with-timestamp-map.vtt": 1,
            "subtitles/mp4-with-wvtt.vtt": 4,
            "corpus/webvtt/bom-utf8-japanese-cue-id.vtt": 1,
            "corpus/webvtt/elephantsdream-descriptions-crlf-header-metadata.vtt": 63,
            "corpus/webvtt/ffmpeg-hls-empty-segment-header-only.vtt": 0,
            "corpus/webvtt/ffmpeg-hls-segment-no-timestamp-map.vtt": 2,
            "corpus/webvtt/legacy-region-header-kind-language.vtt": 4,
            "corpus/webvtt/note-comment-blocks.vtt": 2,
            "corpus/webvtt/shaka-hls-segment-x-timestamp-map.vtt": 1,
            "corpus/webvtt/shaka-live-cue-settings-line-position-size.vtt": 2,
            "corpus/webvtt/shaka-style-block-align.vtt": 1,
            "corpus/webvtt/spec-example-no-hours-voice-tags.vtt": 13,
            "corpus/webvtt/webvtt-file-header-numbered-cues.vtt": 16,
        ]
        #expect(Set(expected.keys) == Set(try webVTTFixturePaths()))
        for (path, count) in expected {
            #expect(try WebVTTDocument.parse(try fixture(path)).cues.count == count, "\(path)")
        }
    }

    @Test func japaneseCueIdentifierAndLegacyRegionHeadersAreKept() throws {
        let japanese = try WebVTTDocument.parse(try fixture("corpus/webvtt/bom-utf8-japanese-cue-id.vtt"))
        #expect(japanese.cues.first?.id?.hasPrefix("\u{307E}\u{305F}\u{306E}") == true)
        #expect(japanese.cues.first?.start == 16_000)
        let legacy = try WebVTTDocument.parse(try fixture("corpus/webvtt/legacy-region-header-kind-language.vtt"))
        #expect(legacy.headerLines.count == 4)
        #expect(legacy.headerLines[2].hasPrefix("Region: id=fred"))
        #expect(legacy.cues[3].payload == ["TO ANYWHERE ", "ELSE OR BEYOND"])
    }

    @Test func canonicalLFFilesSerializeByteForByte() throws {
        for path in ["corpus/webvtt/shaka-hls-segment-x-timestamp-map.vtt", "corpus/webvtt/shaka-style-block-align.vtt",
                     "subtitles/empty.vtt"] {
            let bytes = try fixture(path)
            #expect(try WebVTTDocument.parse(bytes).serialized() == bytes, "\(path)")
        }
    }

    @Test func englishSampleKeepsHeaderBlocksIdsSettingsAndPayload() throws {
        let document = try WebVTTDocument.parse(try fixture("subtitles/en.vtt"))
        #expect(document.headerText == "")
        #expect(document.headerLines == ["Kind: captions", "Language: en"])
        #expect(document.blocks.map(\.kind) == [.note, .style])
        #expect(document.blocks[1].lines == ["STYLE", "::cue { color: yellow; }"])
        #expect(document.cues[0] == WebVTTCue(id: "1", start: 500, end: 2500, payload: ["A test pattern appears."]))
        #expect(document.cues[1].settings == "align:start position:10% line:85%")
        #expect(document.cues[1].payload == ["A tone plays at", "<i>four hundred forty</i> hertz."])
        #expect(document.cues[2] == WebVTTCue(start: 6000, end: 8000, payload: ["This cue has no hours field."]))
        #expect(document.cues[3].id == "intro-end")
        #expect(document.cues[3].settings == "size:80%")
        #expect(document.largestEnd == 11_900)
    }

    @Test func twoHourFileLargestEndIsTheLastTimingLinesEnd() throws {
        // `grep -- '-->' long-2h.vtt | awk '{print $3}' | sort | tail -1` gives 01:59:56.200.
        let document = try WebVTTDocument.parse(try fixture("subtitles/long-2h.vtt"))
        #expect(document.largestEnd == ((1 * 60 + 59) * 60 + 56) * 1000 + 200)
    }

    @Test func largestEndIsTheLargestNotTheLastWhenCuesOverlap() throws {
        let text = "WEBVTT\n\n00:01.000 --> 00:09.000\nlong\n\n00:02.000 --> 00:03.000\nshort\n"
        let document = try WebVTTDocument.parse(Array(text.utf8))
        #expect(document.largestEnd == 9000)
        #expect(WebVTTDocument().largestEnd == 0)
    }

    @Test func forcedFileWithBOMAndCRLFParses() throws {
        let bytes = try fixture("subtitles/en-forced-bom-crlf.vtt")
        #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]))
        let document = try WebVTTDocument.parse(bytes)
        #expect(document.cues == [
            WebVTTCue(start: 1000, end: 3000, payload: ["Only the sign on the wall is translated."]),
            WebVTTCue(start: 7000, end: 9000, payload: ["EXIT"]),
        ])
        let written = document.serialized()
        #expect(!written.contains(0x0D))
        #expect(!written.starts(with: [0xEF, 0xBB, 0xBF]))
    }

    @Test func headerTextAfterTheSignatureIsKept() throws {
        let document = try WebVTTDocument.parse(try fixture("corpus/webvtt/webvtt-file-header-numbered-cues.vtt"))
        #expect(document.headerText == " FILE")
        #expect(document.serialized().starts(with: Array("WEBVTT FILE\n\n1\n00:00:03.837 --> 00:00:07.299\n".utf8)))
    }

    @Test func bareCRLineEndingsWork() throws {
        let document = try WebVTTDocument.parse(Array("WEBVTT\r\r00:01.000 --> 00:02.000\rone\rtwo\r".utf8))
        #expect(document.cues == [WebVTTCue(start: 1000, end: 2000, payload: ["one", "two"])])
    }

    @Test func missingSignatureIsAnError() {
        for text in ["", "WEBVT", "WEBVTTX\n", "1\n00:00:01,000 --> 00:00:02,000\nSRT\n", "\u{FEFF}\nWEBVTT"] {
            #expect(throws: SubtitleError.missingWebVTTSignature) { try WebVTTDocument.parse(Array(text.utf8)) }
        }
        #expect(throws: Never.self) { try WebVTTDocument.parse(Array("WEBVTT\tLive".utf8)) }
    }

    @Test func aBlockWithABadTimingLineIsDroppedAndTheRestSurvive() throws {
        let text = """
        WEBVTT

        00:01.000 --> 00:02.000
        kept one

        00:01.00 --> 00:02.000
        two fraction digits

        00:60.000 --> 00:61.000
        sixty seconds

        1:02.000 --> 1:03.000
        one-digit minutes

        00:03.000 --> 00:04.000
        kept two
        """
        let document = try WebVTTDocument.parse(Array(text.utf8))
        #expect(document.cues.map(\.payload) == [["kept one"], ["kept two"]])
    }

    @Test func absurdHourDigitsAreRejectedWithoutOverflow() throws {
        let huge = String(repeating: "9", count: 40)
        let text = "WEBVTT\n\n\(huge):00:00.000 --> \(huge):00:01.000\nx\n\n0000000000000000000123:00:00.000 --> 123:00:01.000\ny\n"
        let document = try WebVTTDocument.parse(Array(text.utf8))
        #expect(document.cues.count == 1)
        let expectedStart: Int64 = 123 * 3_600_000
        #expect(document.cues.first?.start == expectedStart)
        // Hours wider than two digits are written back in full.
        #expect(String(decoding: document.serialized(), as: UTF8.self).contains("123:00:00.000 --> 123:00:01.000"))
    }

    @Test func aTimingLineWithoutBlankLineStartsANewCue() throws {
        // W3C WebVTT §6.1: any line containing "-->" that is not a cue's first or second line opens the next block.
        let text = "WEBVTT\n00:01.000 --> 00:02.000\none\n00:03.000 --> 00:04.000\ntwo\n"
        let document = try WebVTTDocument.parse(Array(text.utf8))
        #expect(document.headerLines.isEmpty)
        #expect(document.cues.map(\.payload) == [["one"], ["two"]])
    }

    @Test func stylesAndNotesAfterTheFirstCueAreNotKeptAsBlocks() throws {
        let document = try WebVTTDocument.parse(try fixture("corpus/webvtt/note-comment-blocks.vtt"))
        #expect(document.blocks.count == 1)
        #expect(document.blocks.first?.lines.first == "NOTE")
        #expect(document.cues[1].payload == ["- It will perforate your stomach.", "- You could die."])
    }

    @Test func serializedTimesUseTwoDigitHoursAndEndEveryCueWithABlankLine() throws {
        let document = WebVTTDocument(cues: [WebVTTCue(start: 3_723_004, end: 3_723_050, settings: "line:0", payload: ["a"])])
        #expect(String(decoding: document.serialized(), as: UTF8.self) == "WEBVTT\n\n01:02:03.004 --> 01:02:03.050 line:0\na\n\n")
    }

    @Test func serializationNeutralisesValuesThatWouldBreakTheSyntax() throws {
        let document = WebVTTDocument(headerText: "title", headerLines: ["", "Kind: x\nY"], cues: [
            WebVTTCue(id: "a --> b", start: 0, end: 1000, payload: ["one", "", "two --> three"]),
        ])
        let text = String(decoding: document.serialized(), as: UTF8.self)
        #expect(text == "WEBVTT title\nKind: x Y\n\n00:00:00.000 --> 00:00:01.000\none\ntwo --&gt; three\n\n")
        #expect(try WebVTTDocument.parse(document.serialized()).cues.count == 1)
    }
}
