import Foundation
import HLS
import HTTPWire
import Testing
import TestSupport
@testable import Proxy

/// A live segment that just left the window is still served, from what it was listed with, for its
/// duration plus the window's (RFC 8216 §6.2.2); numbers further back are 404, and the record of the
/// numbers that left stays bounded.
@Suite struct LiveWindowHistoryTests {
    typealias Live = LiveWindowRouteTests
    typealias Edge = LiveWindowEdgeRouteTests

    static func timeline(first: UInt64, count: Int, extinf: Double = 4) -> VideoTimeline {
        var timeline = VideoTimeline(durations: Array(repeating: extinf, count: count), playlistType: nil)
        timeline.mediaSequence = first
        timeline.ended = false
        timeline.targetDuration = 4
        timeline.segmentURLs = (0..<count).map { ("http://o/live\(first + UInt64($0)).ts", nil) }
        return timeline
    }

    @Test func aSegmentThatJustLeftTheWindowIsServedWithTheSameBytesAndOlderOnesAreNot() async throws {
        try await withProxy(Live.config) { proxy in
            for sequence in 5..<9 { Edge.serve(proxy, "live\(sequence).ts", Edge.segment(pts: 900_000 + 360_000 * Int64(sequence))) }
            try await Edge.slide(proxy, Edge.window(first: 5, uris: (5..<8).map { "live\($0).ts" }), first: 5)
            let before = try await proxy.get(Live.path(.segment(5)))
            #expect(before.status == 200)
            try await Edge.slide(proxy, Edge.window(first: 6, uris: (6..<9).map { "live\($0).ts" }), first: 6)
            let after = try await proxy.get(Live.path(.segment(5)))
            #expect(after.status == 200)
            #expect(after.body == before.body)
            #expect(Edge.mapLine(after.text) == "X-TIMESTAMP-MAP=MPEGTS:2700000,LOCAL:00:00:20.000")
            for sequence in [4, 0] {
                let gone = try await proxy.get(Live.path(.segment(sequence)))
                #expect(gone.status == 404, "segment \(sequence)")
                #expect(gone.text.contains("nor left it lately"), "segment \(sequence)")
            }
        }
    }

    @Test func aSegmentThatLeftTheWindowButWasNeverAskedForIsMadeFromWhatItWasListedWith() async throws {
        try await withProxy(Live.config) { proxy in
            for sequence in 0..<4 { Edge.serve(proxy, "live\(sequence).ts", Edge.segment(pts: 900_000 + 360_000 * Int64(sequence))) }
            try await Edge.slide(proxy, Edge.window(first: 0, uris: (0..<3).map { "live\($0).ts" }), first: 0)
            try await Edge.slide(proxy, Edge.window(first: 1, uris: (1..<4).map { "live\($0).ts" }), first: 1)
            let head = try await proxy.get(Live.path(.segment(0)))
            #expect(head.status == 200)
            #expect(Edge.mapLine(head.text) == "X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000")
        }
    }

    @Test func aNumberIsKeptForItsDurationPlusTheWindowsAfterItWasLastListed() {
        let history = LiveWindowHistory()
        let start = MonotonicTime(nanoseconds: 1_000_000_000)
        history.note(Self.timeline(first: 10, count: 3), key: "m", now: start)
        // EXTINF 4 s plus the window's 12 s.
        #expect(history.segment(10, key: "m", now: start + .seconds(16))?.segmentURL == "http://o/live10.ts")
        #expect(history.segment(10, key: "m", now: start + .seconds(16) + .milliseconds(1)) == nil)
        #expect(history.segment(13, key: "m", now: start) == nil, "never listed")
        #expect(history.segment(10, key: "other", now: start) == nil, "another master's")
    }

    @Test func theRecordKeepsAtMostItsBoundPerMasterAndOverMasters() {
        let history = LiveWindowHistory()
        let start = MonotonicTime(nanoseconds: 1_000_000_000)
        // A window of 600 sliding by 300: more numbers than the bound are listed within their time.
        for step in 0..<5 { history.note(Self.timeline(first: UInt64(step * 300), count: 600), key: "m", now: start) }
        #expect(history.count(key: "m") == LiveWindowHistory.perMaster)
        #expect(history.segment(1_799, key: "m", now: start) != nil, "the highest are kept")
        #expect(history.segment(0, key: "m", now: start) == nil, "the lowest go first")
        for master in 0..<(LiveWindowHistory.masterLimit + 10) {
            history.note(Self.timeline(first: 0, count: 1), key: "master\(master)", now: start + .seconds(master))
        }
        #expect(history.masterCount == LiveWindowHistory.masterLimit)
        #expect(history.count(key: "master0") == 0, "the master noted longest ago goes first")
    }

    @Test func anOriginThatRestartsItsNumberingForgetsTheOldNumbers() {
        let history = LiveWindowHistory()
        let start = MonotonicTime(nanoseconds: 1_000_000_000)
        history.note(Self.timeline(first: 500, count: 3), key: "m", now: start)
        history.note(Self.timeline(first: 0, count: 3), key: "m", now: start)
        #expect(history.segment(500, key: "m", now: start) == nil)
        #expect(history.segment(0, key: "m", now: start) != nil)
    }
}
