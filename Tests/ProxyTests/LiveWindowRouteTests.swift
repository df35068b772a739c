import Foundation
import HLS
import Testing
import TestSupport
@testable import Proxy

/// A live sliding window (no EXT-X-PLAYLIST-TYPE, no ENDLIST, old segments leaving the head): the
/// subtitle playlist slides with the video's, with its EXT-X-MEDIA-SEQUENCE and
/// EXT-X-DISCONTINUITY-SEQUENCE and its segments numbered alike, and each number names the same cue
/// window on every reload (RFC 8216 §6.2.1, §6.3.2).
@Suite struct LiveWindowRouteTests {
    static let config = EventPlaylistRouteTests.config(masterTTL: 0.2)
    static func path(_ resource: SubtitleURL.Resource) -> String { EventPlaylistRouteTests.path(resource) }

    /// A window over the fixture played in a loop: `count` segments from media sequence `first`, a
    /// discontinuity where the loop starts again (each 4 s, seg000.ts to seg002.ts).
    static func window(first: Int, count: Int = 3) -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        text += "#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence(first: first))\n"
        for sequence in first..<(first + count) {
            if sequence > 0, sequence % 3 == 0, sequence != first { text += "#EXT-X-DISCONTINUITY\n" }
            text += "#EXTINF:4.000000,\nseg00\(sequence % 3).ts\n"
        }
        return Array(text.utf8)
    }

    /// Discontinuities before sequence `first`: one before each multiple of 3 after 0.
    static func discontinuitySequence(first: Int) -> Int { first / 3 }

    static func uris(_ text: String) -> [String] { text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init) }

    @Test func aWindowThatSlidesOverThreeReloadsIsMirroredWithItsSequenceNumbersAndDiscontinuities() async throws {
        try await withProxy(Self.config) { proxy in
            var files: [String: String] = [:]
            for first in 0...3 {
                EventPlaylistRouteTests.serve(proxy, Self.window(first: first))
                let text = try await EventPlaylistRouteTests.playlist(proxy) { $0.contains("#EXT-X-MEDIA-SEQUENCE:\(first)\n") }
                #expect(text.contains("#EXT-X-MEDIA-SEQUENCE:\(first)\n"))
                #expect(text.contains("#EXT-X-DISCONTINUITY-SEQUENCE:\(Self.discontinuitySequence(first: first))\n"))
                #expect(!text.contains("PLAYLIST-TYPE"))
                #expect(!text.contains("#EXT-X-ENDLIST"))
                #expect(Self.uris(text) == (first..<(first + 3)).map { "\($0).vtt" })
                // The discontinuity stays before the segment that restarts the loop, wherever it now is.
                let video = String(decoding: Self.window(first: first), as: UTF8.self)
                let tags = { (playlist: String) in playlist.split(separator: "\n").filter { $0 == "#EXT-X-DISCONTINUITY" || !$0.hasPrefix("#") }.map { $0.hasPrefix("#") ? "D" : "S" } }
                #expect(tags(text) == tags(video))
                // Every segment listed now, and the ones that have left, still hold the same cues.
                for sequence in 0..<(first + 3) {
                    let file = try await proxy.get(Self.path(.segment(sequence)))
                    #expect(file.status == 200, "segment \(sequence) after reload \(first)")
                    if let earlier = files[String(sequence)] {
                        #expect(file.text == earlier, "segment \(sequence) unchanged by reload \(first)")
                    }
                    files[String(sequence)] = file.text
                }
            }
            // Each number is the video segment of that number: 1 is 4 s to 8 s, 2 is 8 s to 12 s.
            #expect(files["1"]?.contains("00:00:03.000 --> 00:00:05.750") == true)
            #expect(files["1"]?.contains("00:00:06.000 --> 00:00:08.000") == true)
            #expect(files["2"]?.contains("00:00:08.500 --> 00:00:11.900") == true)
            #expect(files["2"]?.contains("00:00:03.000") == false)
        }
    }

    @Test func eachPartMapsToThePTSOfItsFirstSegmentSeenAtThatSegmentsStartOnTheClock() async throws {
        try await withProxy(Self.config) { proxy in
            EventPlaylistRouteTests.serve(proxy, Self.window(first: 0))
            _ = try await proxy.get(Self.path(.playlist))
            EventPlaylistRouteTests.serve(proxy, Self.window(first: 2))
            _ = try await EventPlaylistRouteTests.playlist(proxy) { $0.contains("#EXT-X-MEDIA-SEQUENCE:2\n") }
            let before = try await proxy.get(Self.path(.segment(2))).text
            let after = try await proxy.get(Self.path(.segment(3))).text
            let firstPTS = try MPEGTSReader.firstPTS(Array(Data(contentsOf: Fixtures.url("vod-ts/v0/seg000.ts"))))
            // Segment 2's part was first seen at segment 0: it keeps that anchor after 0 has left.
            #expect(before.contains("X-TIMESTAMP-MAP=MPEGTS:\(firstPTS),LOCAL:00:00:00.000"))
            #expect(after.contains("X-TIMESTAMP-MAP=MPEGTS:\(firstPTS),LOCAL:00:00:12.000"))
        }
    }

    @Test func aNumberTheVideoNeverListedIsNotFound() async throws {
        try await withProxy(Self.config) { proxy in
            EventPlaylistRouteTests.serve(proxy, Self.window(first: 5))
            _ = try await proxy.get(Self.path(.playlist))
            #expect(try await proxy.get(Self.path(.segment(4))).status == 404)
            #expect(try await proxy.get(Self.path(.segment(8))).status == 404)
            #expect(try await proxy.get(Self.path(.segment(7))).status == 200)
        }
    }

    @Test func aWindowThatJumpsPastTheRememberedSegmentsIsEstimatedAndLogged() async throws {
        try await withProxy(Self.config) { proxy in
            EventPlaylistRouteTests.serve(proxy, Self.window(first: 0))
            _ = try await proxy.get(Self.path(.playlist))
            EventPlaylistRouteTests.serve(proxy, Self.window(first: 10))
            _ = try await EventPlaylistRouteTests.playlist(proxy) { $0.contains("#EXT-X-MEDIA-SEQUENCE:10\n") }
            _ = try await proxy.get(Self.path(.segment(10)))
            #expect(proxy.logLines.contains { $0.contains("live window moved past every remembered segment") && $0.contains("\"missing_segments\":\"7\"") })
        }
    }

    @Test func anUnreadableMediaSequenceFallsBackToNumberingFromZeroAndSaysSoOnce() async throws {
        try await withProxy(Self.config) { proxy in
            let text = String(decoding: Self.window(first: 4), as: UTF8.self)
                .replacingOccurrences(of: "MEDIA-SEQUENCE:4", with: "MEDIA-SEQUENCE:18446744073709551616")
            EventPlaylistRouteTests.serve(proxy, Array(text.utf8))
            let playlist = try await proxy.get(Self.path(.playlist)).text
            _ = try await proxy.get(Self.path(.playlist))
            #expect(playlist.contains("#EXT-X-MEDIA-SEQUENCE:0\n"))
            #expect(Self.uris(playlist) == ["0.vtt", "1.vtt", "2.vtt"])
            #expect(proxy.logLines.filter { $0.contains("live playlist's sequence numbers unusable") }.count == 1)
            #expect(proxy.logLines.filter { $0.contains("sequence tag is not a decimal-integer") }.count == 1)
        }
    }

    @Test func aWindowThatEndsKeepsItsNumberingAndTheCuesOfEachNumber() async throws {
        try await withProxy(Self.config) { proxy in
            EventPlaylistRouteTests.serve(proxy, Self.window(first: 0))
            _ = try await proxy.get(Self.path(.playlist))
            let live = try await proxy.get(Self.path(.segment(2))).text
            EventPlaylistRouteTests.serve(proxy, Self.window(first: 2) + Array("#EXT-X-ENDLIST\n".utf8))
            let ended = try await EventPlaylistRouteTests.playlist(proxy) { $0.contains("#EXT-X-ENDLIST") }
            #expect(ended.contains("#EXT-X-MEDIA-SEQUENCE:2\n"))
            #expect(Self.uris(ended) == ["2.vtt", "3.vtt", "4.vtt"])
            #expect(try await proxy.get(Self.path(.segment(2))).text == live)
        }
    }

    @Test func aPlaylistWithoutTypeThatEndsAtSequenceZeroIsServedAsAVOD() async throws {
        try await withProxy(Self.config) { proxy in
            EventPlaylistRouteTests.serve(proxy, Self.window(first: 0) + Array("#EXT-X-ENDLIST\n".utf8))
            let playlist = try await proxy.get(Self.path(.playlist)).text
            #expect(playlist.contains("#EXT-X-MEDIA-SEQUENCE:0\n"))
            #expect(playlist.contains("#EXT-X-PLAYLIST-TYPE:VOD\n"))
            #expect(Self.uris(playlist) == ["0.vtt", "1.vtt", "2.vtt"])
            #expect(!proxy.logLines.contains { $0.contains("live playlist") })
        }
    }

    @Test func aMediaSequenceBeyondWhatASegmentURLCanNameFallsBackToNumberingFromZero() async throws {
        try await withProxy(Self.config) { proxy in
            let text = String(decoding: Self.window(first: 4), as: UTF8.self)
                .replacingOccurrences(of: "MEDIA-SEQUENCE:4", with: "MEDIA-SEQUENCE:18446744073709551615")
            EventPlaylistRouteTests.serve(proxy, Array(text.utf8))
            let playlist = try await proxy.get(Self.path(.playlist)).text
            #expect(Self.uris(playlist) == ["0.vtt", "1.vtt", "2.vtt"])
            let segment = try await proxy.get(Self.path(.segment(1)))
            #expect(segment.status == 200)
            #expect(proxy.logLines.contains { $0.contains("live playlist's sequence numbers unusable") })
        }
    }
}
