import Foundation
@testable import HLS
import TestSupport
import Testing

@Suite struct WebVTTSegmentingTests {
    private let document = WebVTTDocument(
        headerLines: ["X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000"],
        blocks: [
            WebVTTBlock(kind: .note, lines: ["NOTE not for segments"]),
            WebVTTBlock(kind: .style, lines: ["STYLE", "::cue { color: lime }"]),
        ],
        cues: [
            WebVTTCue(start: 1000, end: 3000, payload: ["first window"]),
            WebVTTCue(start: 5000, end: 7000, payload: ["straddles 6 s"]),
            WebVTTCue(start: 6000, end: 6500, payload: ["starts on the boundary"]),
            WebVTTCue(start: 8000, end: 40_000, payload: ["spans three windows"]),
            WebVTTCue(start: 50_000, end: 51_000, payload: ["in the open-ended last window"]),
        ]
    )

    private func payloads(_ segment: WebVTTDocument) -> [String] {
        segment.cues.flatMap(\.payload)
    }

    @Test func aStraddlingCueAppearsInBothWindowsWithItsFullTimes() {
        let segments = document.segmented(boundaries: [0, 6000, 12_000, 18_000, 24_000])
        #expect(segments.count == 5)
        #expect(payloads(segments[0]) == ["first window", "straddles 6 s"])
        #expect(payloads(segments[1]) == ["straddles 6 s", "starts on the boundary", "spans three windows"])
        #expect(segments[1].cues[0] == document.cues[1])
        #expect(payloads(segments[2]) == ["spans three windows"])
        #expect(payloads(segments[3]) == ["spans three windows"])
        #expect(payloads(segments[4]) == ["spans three windows", "in the open-ended last window"])
    }

    @Test func everySegmentKeepsHeaderAndStyleButNotNotes() {
        for segment in document.segmented(boundaries: [0, 6000, 12_000]) {
            #expect(segment.headerLines == document.headerLines)
            #expect(segment.blocks.map(\.kind) == [.style])
            #expect(segment.timestampMap == TimestampMap(mpegts: 126_000))
        }
    }

    @Test func emptyWindowsAreValidFilesEndingWithABlankLine() throws {
        let segments = document.segmented(boundaries: [0, 40_000, 45_000, 49_000])
        #expect(segments[2].cues.isEmpty)
        let bytes = segments[2].serialized()
        #expect(String(decoding: bytes, as: UTF8.self)
            == "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n\nSTYLE\n::cue { color: lime }\n\n")
        #expect(try WebVTTDocument.parse(bytes) == segments[2])
        #expect(String(decoding: WebVTTDocument().segmented(boundaries: [0])[0].serialized(), as: UTF8.self) == "WEBVTT\n\n")
    }

    @Test func everySerializedSegmentEndsWithABlankLine() {
        for segment in document.segmented(boundaries: [0, 6000, 12_000, 18_000]) {
            #expect(segment.serialized().suffix(2) == [0x0A, 0x0A])
        }
    }

    @Test func cuesBeforeTheFirstBoundaryBelongToNoWindow() {
        let segments = document.segmented(boundaries: [4000, 10_000])
        #expect(payloads(segments[0]) == ["straddles 6 s", "starts on the boundary", "spans three windows"])
        #expect(segments.allSatisfy { !payloads($0).contains("first window") })
        #expect(document.segmented(boundaries: []).isEmpty)
    }

    @Test func zeroLengthCuesBelongToTheWindowHoldingTheirStart() {
        let instant = WebVTTDocument(cues: [WebVTTCue(start: 6000, end: 6000, payload: ["instant"])])
        let segments = instant.segmented(boundaries: [0, 6000, 12_000])
        #expect(segments.map(\.cues.count) == [0, 1, 0])
    }

    @Test func unorderedOrRepeatedBoundariesGiveEmptyWindowsInsteadOfTrapping() {
        let repeated = document.segmented(boundaries: [0, 6000, 6000, 12_000])
        let plain = document.segmented(boundaries: [0, 6000, 12_000])
        #expect(repeated[1].cues.isEmpty)
        #expect(repeated[0] == plain[0])
        #expect(repeated[2] == plain[1])
        #expect(repeated[3] == plain[2])
        let unordered = document.segmented(boundaries: [12_000, 0, 6000])
        #expect(unordered.count == 3)
        #expect(unordered[0].cues.isEmpty)
        #expect(payloads(unordered[1]) == ["first window", "straddles 6 s"])
    }

    @Test func twoHourFileSplitsIntoSixSecondWindowsWithoutLosingCues() throws {
        let long = try WebVTTDocument.parse(try fixture("subtitles/long-2h.vtt"))
        let boundaries = (0..<1200).map { Int64($0) * 6000 }
        let segments = long.segmented(boundaries: boundaries)
        #expect(segments.count == 1200)
        // Every cue lasts 3.2 s starting every 4 s, so each cue lies in one window or straddles into the next.
        let placements = segments.reduce(0) { $0 + $1.cues.count }
        let straddling = long.cues.filter { $0.start / 6000 != ($0.end - 1) / 6000 }.count
        #expect(placements == long.cues.count + straddling)
        #expect(Set(segments.flatMap(\.cues).map(\.start)).count == long.cues.count)
    }

    @Test func randomCuesLandInExactlyTheWindowsTheyOverlap() {
        var generator = SeededGenerator()
        let cues = (0..<300).map { index -> WebVTTCue in
            let start = Int64.random(in: 0...60_000, using: &generator)
            let length = [0, 1, 500, 5999, 6000, 6001, 20_000].randomElement(using: &generator) ?? 0
            return WebVTTCue(start: start, end: start + Int64(length), payload: ["\(index)"])
        }
        let boundaries: [Int64] = [0, 6000, 12_000, 18_000, 24_000, 30_000, 36_000, 42_000, 48_000, 54_000]
        let segments = WebVTTDocument(cues: cues).segmented(boundaries: boundaries)
        for (window, segment) in segments.enumerated() {
            let start = boundaries[window]
            let end = window + 1 < boundaries.count ? boundaries[window + 1] : Int64.max
            // Straight from RFC 8216 §3.5: shown during [start, end); an instant cue at its start time.
            let expected = cues.filter { cue in
                cue.end > cue.start ? cue.start < end && cue.end > start : cue.start >= start && cue.start < end
            }
            #expect(segment.cues == expected, "window \(window)")
        }
    }
}
