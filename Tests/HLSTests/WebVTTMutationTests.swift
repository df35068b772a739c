import Foundation
@testable import HLS
import TestSupport
import Testing

@Suite struct WebVTTMutationTests {
    @Test func mutatedSubtitlesParseOrFailWithTypedErrorsAndStillRoundTrip() throws {
        let sources = try ["subtitles/en.vtt", "subtitles/en-forced-bom-crlf.vtt", "corpus/webvtt/legacy-region-header-kind-language.vtt",
                           "corpus/webvtt/note-comment-blocks.vtt"].map(fixture)
        let srtSources = try ["subtitles/es.srt", "corpus/srt/utf16le-bom.srt"].map(fixture)
        var generator = SeededGenerator()
        var parsed = 0
        for round in 0..<600 {
            let bytes = generator.mutate(sources[round % sources.count])
            if let document = try? WebVTTDocument.parse(bytes) {
                parsed += 1
                // Whatever was read, its serialization reads back the same.
                #expect(try WebVTTDocument.parse(document.serialized()) == document)
                _ = document.segmented(boundaries: [0, 2000, 4000]).map { $0.serialized() }
            }
            let srt = generator.mutate(srtSources[round % srtSources.count])
            if let document = try? SRTConverter.webVTT(from: srt) {
                #expect(try WebVTTDocument.parse(document.serialized()) == document)
            }
        }
        #expect(parsed > 100)
    }

    @Test func randomBytesNeverTrapTheTextReaders() {
        var generator = SeededGenerator()
        for length in [0, 1, 6, 7, 30, 300] {
            for _ in 0..<50 {
                var bytes = Array("WEBVTT\n".utf8)
                bytes += (0..<length).map { _ in [0x0A, 0x0D, 0x2D, 0x3E, 0x3A, 0x2E, 0x30, 0x39, 0x20, 0xFF, 0xC3]
                    .randomElement(using: &generator) ?? 0 }
                _ = try? WebVTTDocument.parse(bytes)
                _ = try? SRTConverter.webVTT(from: bytes)
                _ = TextEncoding.utf8Bytes(from: Array(bytes.dropFirst(7)))
            }
        }
    }
}
