import Foundation
@testable import HLS
import TestSupport
import Testing

@Suite struct WebVTTDocumentEditingTests {
    private let sample = WebVTTDocument(cues: [
        WebVTTCue(start: 500, end: 1500, payload: ["before zero"]),
        WebVTTCue(start: 1800, end: 2600, payload: ["straddles zero"]),
        WebVTTCue(start: 4000, end: 5000, payload: ["later"]),
    ])

    @Test func shiftingForwardMovesEveryCue() {
        let shifted = sample.shifted(by: 10_000)
        #expect(shifted.cues.map(\.start) == [10_500, 11_800, 14_000])
        #expect(shifted.cues.map(\.end) == [11_500, 12_600, 15_000])
    }

    @Test func shiftingBackDropsCuesBeforeZeroAndClampsStraddlingStarts() {
        let shifted = sample.shifted(by: -2000)
        #expect(shifted.cues.map(\.payload) == [["straddles zero"], ["later"]])
        #expect(shifted.cues.map(\.start) == [0, 2000])
        #expect(shifted.cues.map(\.end) == [600, 3000])
    }

    @Test func shiftingByExtremeAmountsDoesNotTrap() {
        #expect(sample.shifted(by: .max).cues.allSatisfy { $0.end == .max })
        #expect(sample.shifted(by: .min).cues.isEmpty)
    }

    @Test func timestampMapIsReadInEitherOrder() throws {
        let ours = try WebVTTDocument.parse(try fixture("subtitles/with-timestamp-map.vtt"))
        #expect(ours.timestampMap == TimestampMap(mpegts: 126_000, local: 0))
        // shaka-packager writes LOCAL first: X-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:9000
        let shaka = try WebVTTDocument.parse(try fixture("corpus/webvtt/shaka-hls-segment-x-timestamp-map.vtt"))
        #expect(shaka.timestampMap == TimestampMap(mpegts: 9000, local: 0))
        #expect(try WebVTTDocument.parse(try fixture("subtitles/en.vtt")).timestampMap == nil)
        #expect(TimestampMap(headerLine: "X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:10.000")
            == TimestampMap(mpegts: 900_000, local: 10_000))
    }

    @Test func malformedTimestampMapLinesAreNotMaps() {
        for line in ["X-TIMESTAMP-MAP=MPEGTS:126000", "X-TIMESTAMP-MAP=LOCAL:00:00:00.000",
                     "X-TIMESTAMP-MAP=MPEGTS:99999999999999999999999,LOCAL:00:00:00.000",
                     "X-TIMESTAMP-MAP=MPEGTS:-5,LOCAL:00:00:00.000", "MPEGTS:1,LOCAL:00:00:00.000"] {
            #expect(TimestampMap(headerLine: line) == nil, "\(line)")
        }
    }

    @Test func settingAMapWritesTheRFCHeaderLine() throws {
        let document = try WebVTTDocument.parse(try fixture("subtitles/en.vtt"))
            .settingTimestampMap(TimestampMap(mpegts: 126_000), keepExisting: true)
        #expect(document.headerLines == ["X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000", "Kind: captions", "Language: en"])
        let text = String(decoding: document.serialized(), as: UTF8.self)
        #expect(text.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\nKind: captions\n"))
    }

    @Test func anExistingMapIsKeptOrReplacedAsAsked() throws {
        let original = try WebVTTDocument.parse(try fixture("subtitles/with-timestamp-map.vtt"))
        let kept = original.settingTimestampMap(TimestampMap(mpegts: 900_000), keepExisting: true)
        #expect(kept == original)
        let replaced = original.settingTimestampMap(TimestampMap(mpegts: 900_000), keepExisting: false)
        #expect(replaced.timestampMap == TimestampMap(mpegts: 900_000, local: 0))
        #expect(replaced.headerLines.filter { $0.hasPrefix("X-TIMESTAMP-MAP") }.count == 1)
    }

    @Test func aMalformedExistingMapIsReplacedEvenWhenKeeping() {
        let broken = WebVTTDocument(headerLines: ["X-TIMESTAMP-MAP=MPEGTS:oops"])
        let fixed = broken.settingTimestampMap(TimestampMap(mpegts: 1), keepExisting: true)
        #expect(fixed.headerLines == ["X-TIMESTAMP-MAP=MPEGTS:1,LOCAL:00:00:00.000"])
    }
}
