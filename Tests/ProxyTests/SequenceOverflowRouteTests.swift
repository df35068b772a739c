import Foundation
import HLS
import Testing
import TestSupport
@testable import Proxy

/// Video playlists whose sequence numbers, durations or target durations sit at the edges of their
/// ranges (RFC 8216 §4.2: decimal-integers up to 2^64-1): the server never traps on them, answers a
/// clear 502 when the numbers leave no room for the segments, and whatever playlist it writes is valid.
@Suite struct SequenceOverflowRouteTests {
    typealias Event = EventPlaylistRouteTests

    /// No caching of the video's playlist or timeline, so each case below is read afresh.
    static let uncachedConfig = EventPlaylistRouteTests.config(masterTTL: 0)
        .replacingOccurrences(of: "\"subtitle_ttl_seconds\": 300", with: "\"subtitle_ttl_seconds\": 0")

    static func playlist(mediaSequence: String, segments: Int, extra: String = "") -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)\n\(extra)"
        for index in 0..<segments { text += "#EXTINF:4.000000,\nseg00\(index).ts\n" }
        return Array(text.utf8)
    }

    /// Checks `text` as RFC 8216 requires of a media playlist the proxy writes: it parses, its sequence
    /// tags are decimal-integers, the last segment's number and the last discontinuity's stay below
    /// 2^64, and every EXTINF rounded to the nearest integer is at most the target duration (§4.3.3.1).
    static func expectValidPlaylist(_ text: String, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let parsed = try? MediaPlaylist.parse(Array(text.utf8)) else {
            Issue.record("unparsable playlist (\(comment)):\n\(text)", sourceLocation: sourceLocation)
            return
        }
        #expect(parsed.unreadableTags.isEmpty, "\(comment)", sourceLocation: sourceLocation)
        // The last segment's number, M + count - 1, must be a decimal-integer (RFC 8216 §4.2: at most 2^64-1).
        let count = UInt64(parsed.segments.count)
        #expect(count == 0 || (parsed.mediaSequence ?? 0) <= UInt64.max - (count - 1), "\(comment)\n\(text)", sourceLocation: sourceLocation)
        let discontinuities = UInt64(parsed.segments.filter(\.discontinuity).count)
        #expect(!(parsed.discontinuitySequence ?? 0).addingReportingOverflow(discontinuities).overflow, "\(comment)\n\(text)", sourceLocation: sourceLocation)
        guard let target = parsed.targetDuration else {
            Issue.record("no EXT-X-TARGETDURATION (\(comment))", sourceLocation: sourceLocation)
            return
        }
        for segment in parsed.segments {
            #expect((segment.duration + 0.5).rounded(.down) <= Double(target), "\(comment)\n\(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func aLiveWindowAtTheLargestMediaSequenceWithNoSegmentsNeverCrashesTheServer() async throws {
        try await withProxy(LiveWindowRouteTests.config) { proxy in
            Event.serve(proxy, Self.playlist(mediaSequence: "18446744073709551615", segments: 0))
            let playlist = try await proxy.get(Event.path(.playlist))
            #expect(playlist.status == 200)
            #expect(playlist.text.contains("#EXT-X-MEDIA-SEQUENCE:18446744073709551615\n"))
            #expect(Event.segmentCount(playlist.text) == 0)
            Self.expectValidPlaylist(playlist.text, "empty window at 2^64-1")
            // The server is still up and answers the next request.
            #expect(try await proxy.get(Event.path(.segment(0))).status < 500)
        }
    }

    @Test func aLiveWindowWhoseSegmentsWouldBeNumberedPast2To64IsFollowedFromZeroWithAWarning() async throws {
        try await withProxy(LiveWindowRouteTests.config) { proxy in
            Event.serve(proxy, Self.playlist(mediaSequence: "18446744073709551614", segments: 3))
            let playlist = try await proxy.get(Event.path(.playlist))
            #expect(playlist.status == 200)
            #expect(LiveWindowRouteTests.uris(playlist.text) == ["0.vtt", "1.vtt", "2.vtt"])
            #expect(playlist.text.contains("#EXT-X-MEDIA-SEQUENCE:0\n"))
            Self.expectValidPlaylist(playlist.text, "window numbered past 2^64-1")
            #expect(proxy.logLines.contains { $0.contains("numbers its segments past 2^64-1") && $0.contains("18446744073709551614 (+3 passes 2^64-1)") })
            for index in [0, 1, 2, Int.max] {
                #expect(try await proxy.get(Event.path(.segment(index))).status < 500, "segment \(index)")
            }
        }
    }

    @Test func anEmptyVODAtTheLargestMediaSequenceIsRefusedWithAReasonRatherThanNumberedPast2To64() async throws {
        try await withProxy(LiveWindowRouteTests.config) { proxy in
            // No segments to align to: the track's fixed windows would be numbered from 2^64-1 on.
            Event.serve(proxy, Self.playlist(mediaSequence: "18446744073709551615", segments: 0, extra: "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-ENDLIST\n"))
            let playlist = try await proxy.get(Event.path(.playlist))
            #expect(playlist.status == 502)
            #expect(playlist.text.contains("EXT-X-MEDIA-SEQUENCE 18446744073709551615 leaves no room"), "\(playlist.text)")
        }
    }

    @Test func aDiscontinuitySequenceThatWouldNumberAPartPast2To64FallsBackToZeroWithAWarning() async throws {
        try await withProxy(LiveWindowRouteTests.config) { proxy in
            let extra = "#EXT-X-DISCONTINUITY-SEQUENCE:18446744073709551615\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            var bytes = Self.playlist(mediaSequence: "0", segments: 1, extra: extra)
            bytes += Array("#EXT-X-DISCONTINUITY\n#EXTINF:4.000000,\nseg001.ts\n#EXT-X-ENDLIST\n".utf8)
            Event.serve(proxy, bytes)
            let playlist = try await proxy.get(Event.path(.playlist))
            #expect(playlist.status == 200)
            #expect(playlist.text.contains("#EXT-X-DISCONTINUITY-SEQUENCE:0\n"))
            Self.expectValidPlaylist(playlist.text, "discontinuity numbered past 2^64-1")
            #expect(proxy.logLines.contains { $0.contains("18446744073709551615 (+1 passes 2^64-1)") }, "\(proxy.logLines)")
        }
    }

    /// Seeded playlists with extreme sequence numbers, durations and target durations, of every type:
    /// each answer is a playlist that is valid, a 4xx, or the 502 that names the overflow, never a trap
    /// or a 500. Replay a failure with the printed HLS_TEST_SEED.
    @Test func seededPlaylistsWithExtremeNumbersAreAnsweredWithValidPlaylistsOrAClearRefusal() async throws {
        var random = SeededGenerator()
        let sequences = ["0", "1", "3", "9223372036854775805", "9223372036854775807", "9223372036854775808",
                         "18446744073709551612", "18446744073709551614", "18446744073709551615", "18446744073709551616", "-1"]
        let durations = ["4", "4.000000", "0", "0.0000001", "3.9999", "86400", "1e300", "99999999999999999999", "1000000000.5"]
        let targets = ["4", "1", "0", "-3", "9223372036854775807", "86400", "x"]
        try await withProxy(Self.uncachedConfig) { proxy in
            for round in 0..<40 {
                var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(targets.randomElement(using: &random) ?? "4")\n"
                text += "#EXT-X-MEDIA-SEQUENCE:\(sequences.randomElement(using: &random) ?? "0")\n"
                if Bool.random(using: &random) { text += "#EXT-X-DISCONTINUITY-SEQUENCE:\(sequences.randomElement(using: &random) ?? "0")\n" }
                let type = [nil, "EVENT", "VOD"].randomElement(using: &random) ?? nil
                if let type { text += "#EXT-X-PLAYLIST-TYPE:\(type)\n" }
                let count = Int.random(in: 0...4, using: &random)
                for index in 0..<count {
                    if Int.random(in: 0..<3, using: &random) == 0 { text += "#EXT-X-DISCONTINUITY\n" }
                    text += "#EXTINF:\(durations.randomElement(using: &random) ?? "4"),\nseg00\(index % 3).ts\n"
                }
                if Bool.random(using: &random) { text += "#EXT-X-ENDLIST\n" }
                Event.serve(proxy, Array(text.utf8))
                let comment = "round \(round), seed \(random.seed):\n\(text)"
                for track in ["en", "one"] {
                    let playlist = try await proxy.get(Event.path(.playlist, track: track))
                    #expect(playlist.status == 200 || playlist.status == 502, "\(playlist.status) \(track) \(comment)")
                    if playlist.status == 200 { Self.expectValidPlaylist(playlist.text, "\(track) \(comment)") }
                    if playlist.status == 502 { #expect(playlist.text.contains("leaves no room"), "\(playlist.text) \(comment)") }
                    var numbers = LiveWindowRouteTests.uris(playlist.text).compactMap { Int($0.dropLast(4)) }
                    numbers += [0, 1, Int.max]
                    for number in numbers.prefix(6) {
                        let file = try await proxy.get(Event.path(.segment(number), track: track))
                        #expect(file.status != 500 && file.status < 503, "segment \(number): \(file.status) \(track) \(comment)")
                    }
                }
            }
        }
    }
}
