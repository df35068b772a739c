import Foundation
import HLS
import Testing
import TestSupport
@testable import Proxy

/// A live sliding window (no EXT-X-PLAYLIST-TYPE, no ENDLIST, old segments leaving the head): the
/// subtitle playlist slides with the video's, with its EXT-X-MEDIA-SEQUENCE and
/// EXT-X-DISCONTINUITY-SEQUENCE and its segments numbered alike (RFC 8216 §6.2.1, §6.3.2), and segment
/// N is a pure function of what the origin lists (SPEC: synthesized subtitle URLs are stateless): the
/// cues of [N×T, N×T + min(EXTINF, T)) mapped with MPEGTS = the first PTS of video segment N, LOCAL = N×T; with an
/// epoch (`mpegts`), the cues from its PTS on the epoch's timeline.
@Suite struct LiveWindowRouteTests {
    static let config = EventPlaylistRouteTests.config(masterTTL: 0.2)
    static func path(_ resource: SubtitleURL.Resource, track: String = "en", query: String = "") -> String {
        SubtitleURL(setName: "live", trackID: track, masterTarget: "/origin/vod-ts/master.m3u8\(query)", resource: resource).path
    }

    /// A track `ep` whose epoch is the first PTS of seg000.ts: cue time 0 is that PTS.
    static func epochConfig(mpegts: Int64) -> String {
        let track = #"{ "id": "ep", "name": "Epoch", "language": "de", "source": "/subtitles/en.vtt", "mpegts": \#(mpegts) }"#
        return config.replacingOccurrences(of: #""mode": "single" }"#, with: #""mode": "single" }, "# + track)
    }

    /// A window over the fixture played in a loop: `count` segments from media sequence `first`, a
    /// discontinuity where the loop starts again (each 4 s, seg000.ts to seg002.ts), or with `distinct`
    /// names `live<N>.ts`, each served by `serveSegments` as a copy of the looped segment.
    static func window(first: Int, count: Int = 3, distinct: Bool = false) -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        text += "#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence(first: first))\n"
        for sequence in first..<(first + count) {
            if sequence > 0, sequence % 3 == 0, sequence != first { text += "#EXT-X-DISCONTINUITY\n" }
            text += "#EXTINF:4.000000,\n" + (distinct ? "live\(sequence).ts\n" : "seg00\(sequence % 3).ts\n")
        }
        return Array(text.utf8)
    }

    /// Discontinuities before sequence `first`: one before each multiple of 3 after 0.
    static func discontinuitySequence(first: Int) -> Int { first / 3 }

    static func uris(_ text: String) -> [String] { text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init) }

    static func segmentBytes(_ index: Int) throws -> [UInt8] {
        Array(try Data(contentsOf: Fixtures.url("vod-ts/v0/seg00\(index % 3).ts")))
    }

    /// The first PTS of the looped segment played as sequence `sequence`.
    static func pts(_ sequence: Int) throws -> Int64 { try MPEGTSReader.firstPTS(segmentBytes(sequence)) }

    /// Serves `live<N>.ts` for N in `present`, and 404 for those in `gone` (a live origin deleting its head).
    static func serveSegments(_ proxy: ProxyHarness, present: Range<Int>, gone: Range<Int> = 0..<0) throws {
        for sequence in present {
            proxy.origin.setFault("/vod-ts/v0/live\(sequence).ts", .body(try segmentBytes(sequence), contentType: "video/mp2t"))
        }
        for sequence in gone { proxy.origin.setFault("/vod-ts/v0/live\(sequence).ts", .status(404)) }
    }

    /// Serves window `first` and waits until `proxy` lists it.
    static func slide(_ proxy: ProxyHarness, to first: Int, distinct: Bool = false) async throws {
        EventPlaylistRouteTests.serve(proxy, window(first: first, distinct: distinct))
        _ = try await EventPlaylistRouteTests.playlist(proxy) { $0.contains("#EXT-X-MEDIA-SEQUENCE:\(first)\n") }
    }

    /// The same config on `origin`'s base URL, so a second proxy reads the first one's origin.
    static func sharing(_ origin: FixtureOrigin, _ json: String = config) -> String {
        json.replacingOccurrences(of: "ORIGIN", with: origin.baseURL)
    }

    @Test func aWindowThatSlidesOverThreeReloadsIsMirroredWithItsSequenceNumbersAndDiscontinuities() async throws {
        try await withProxy(Self.config) { proxy in
            var files: [Int: String] = [:]
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
                // Every segment listed holds the same bytes on every reload that lists it.
                for sequence in first..<(first + 3) {
                    let file = try await proxy.get(Self.path(.segment(sequence)))
                    #expect(file.status == 200, "segment \(sequence) after reload \(first)")
                    #expect(HardeningSubtitleSourceTests.maxAge(file) == 300)
                    if let earlier = files[sequence] { #expect(file.text == earlier, "segment \(sequence) unchanged by reload \(first)") }
                    files[sequence] = file.text
                }
            }
            // Each number is its nominal window: 1 is 4 s to 8 s, 2 is 8 s to 12 s.
            #expect(files[1]?.contains("00:00:03.000 --> 00:00:05.750") == true)
            #expect(files[1]?.contains("00:00:06.000 --> 00:00:08.000") == true)
            #expect(files[2]?.contains("00:00:08.500 --> 00:00:11.900") == true)
            #expect(files[2]?.contains("00:00:03.000") == false)
        }
    }

    @Test func eachSegmentMapsThePTSOfItsOwnVideoSegmentToItsNominalStart() async throws {
        try await withProxy(Self.config) { proxy in
            try await Self.slide(proxy, to: 2)
            let two = try await proxy.get(Self.path(.segment(2))).text
            let three = try await proxy.get(Self.path(.segment(3))).text
            #expect(two.contains("X-TIMESTAMP-MAP=MPEGTS:\(try Self.pts(2)),LOCAL:00:00:08.000"))
            #expect(three.contains("X-TIMESTAMP-MAP=MPEGTS:\(try Self.pts(3)),LOCAL:00:00:12.000"))
        }
    }

    @Test func twoInstancesThatFirstSeeDifferentWindowsServeTheSameBytesForEachNumber() async throws {
        try await withProxy(Self.config) { early in
            try await Self.slide(early, to: 0)
            for sequence in 0..<3 { #expect(try await early.get(Self.path(.segment(sequence))).status == 200) }
            try await Self.slide(early, to: 4)
            // The second instance joins now: the first window it sees starts at 4.
            try await withProxy(Self.sharing(early.origin)) { late in
                let playlist = try await late.get(Self.path(.playlist)).text
                #expect(playlist.contains("#EXT-X-MEDIA-SEQUENCE:4\n"))
                #expect(playlist == (try await early.get(Self.path(.playlist))).text)
                for sequence in 4..<7 {
                    let a = try await early.get(Self.path(.segment(sequence)))
                    let b = try await late.get(Self.path(.segment(sequence)))
                    #expect(a.status == 200)
                    #expect(a.body == b.body, "segment \(sequence)")
                    #expect(a.header("ETag") == b.header("ETag"))
                }
                #expect(try await late.get(Self.path(.segment(4))).text.contains("X-TIMESTAMP-MAP=MPEGTS:\(try Self.pts(4)),LOCAL:00:00:16.000"))
            }
        }
    }

    @Test func twoViewerTokensGetTheSameBytesForEachNumber() async throws {
        try await withProxy(Self.config) { proxy in
            try await Self.slide(proxy, to: 1)
            for sequence in 1..<4 {
                let a = try await proxy.get(Self.path(.segment(sequence), query: "?token=viewer-a"))
                let b = try await proxy.get(Self.path(.segment(sequence), query: "?token=viewer-b"))
                #expect(a.status == 200)
                #expect(a.body == b.body, "segment \(sequence)")
                #expect(a.text.contains("X-TIMESTAMP-MAP=MPEGTS:\(try Self.pts(sequence)),"))
            }
        }
    }

    @Test func anOriginThatDeletesOldSegmentsKeepsEverySegmentItListsMapped() async throws {
        try await withProxy(Self.config) { proxy in
            try Self.serveSegments(proxy, present: 0..<3)
            try await Self.slide(proxy, to: 0, distinct: true)
            _ = try await proxy.get(Self.path(.segment(1)))
            for first in 1...6 {
                try Self.serveSegments(proxy, present: first..<(first + 3), gone: 0..<first)
                try await Self.slide(proxy, to: first, distinct: true)
                for sequence in first..<(first + 3) {
                    let file = try await proxy.get(Self.path(.segment(sequence)))
                    #expect(file.text.contains("X-TIMESTAMP-MAP=MPEGTS:\(try Self.pts(sequence)),"), "segment \(sequence) in window \(first)")
                    #expect(HardeningSubtitleSourceTests.maxAge(file) == 300)
                }
            }
            #expect(!proxy.logLines.contains { $0.contains("without X-TIMESTAMP-MAP") })
        }
    }

    @Test func aSegmentWhosePTSCannotBeReadIsServedUnmappedForTheFallbackTTLWithOneWarnLine() async throws {
        try await withProxy(Self.config) { proxy in
            try Self.serveSegments(proxy, present: 0..<2, gone: 2..<3)
            try await Self.slide(proxy, to: 0, distinct: true)
            let file = try await proxy.get(Self.path(.segment(2)))
            _ = try await proxy.get(Self.path(.segment(2)))
            #expect(file.status == 200)
            #expect(!file.text.contains("X-TIMESTAMP-MAP"))
            #expect(file.text.contains("00:00:08.500 --> 00:00:11.900"))
            #expect(HardeningSubtitleSourceTests.maxAge(file) == 5)
            #expect(proxy.logLines.filter { $0.contains("live subtitle segment served without X-TIMESTAMP-MAP") && $0.contains(#""sequence":"2""#) }.count == 1)
        }
    }

    @Test func aNumberBeforeOrAfterTheWindowIsNotFoundWithItsReason() async throws {
        try await withProxy(Self.config) { proxy in
            try await Self.slide(proxy, to: 5)
            #expect(try await proxy.get(Self.path(.segment(7))).status == 200)
            #expect(try await proxy.get(Self.path(.segment(5))).status == 200)
            for sequence in [8, 4, 0] {
                let answer = try await proxy.get(Self.path(.segment(sequence)))
                #expect(answer.status == 404, "segment \(sequence)")
                #expect(answer.text.contains("subtitle segment \(sequence) is not in the video's live window (5 to 8 exclusive)"))
            }
            #expect(!proxy.logLines.contains { $0.contains("live subtitle segment served without X-TIMESTAMP-MAP") })
        }
    }

    @Test func aWindowThatSkipsAheadOrStepsBackServesWhatAFreshInstanceServes() async throws {
        try await withProxy(Self.config) { proxy in
            try await Self.slide(proxy, to: 0)
            let two = try await proxy.get(Self.path(.segment(2))).body
            try await Self.slide(proxy, to: 10)
            let ten = try await proxy.get(Self.path(.segment(10)))
            #expect(ten.text.contains("X-TIMESTAMP-MAP=MPEGTS:\(try Self.pts(10)),LOCAL:00:00:40.000"))
            try await Self.slide(proxy, to: 2)
            let back = try await proxy.get(Self.path(.segment(2)))
            #expect(back.body == two)
            // Stepped back, segment 2 still maps its own PTS to its nominal start.
            #expect(back.text.contains("X-TIMESTAMP-MAP=MPEGTS:\(try Self.pts(2)),LOCAL:00:00:08.000\n"))
            try await withProxy(Self.sharing(proxy.origin)) { fresh in
                EventPlaylistRouteTests.serve(proxy, Self.window(first: 10))
                let again = try await fresh.get(Self.path(.segment(10)))
                #expect(again.body == ten.body)
            }
            #expect(!proxy.logLines.contains { $0.contains("live subtitle segment served without X-TIMESTAMP-MAP") })
        }
    }

    @Test func withAnEpochEachSegmentsCuesComeFromItsPTSOnTheEpochsTimeline() async throws {
        let epoch = try Self.pts(0)
        try await withProxy(Self.epochConfig(mpegts: epoch)) { proxy in
            try await Self.slide(proxy, to: 1, distinct: true)
            try Self.serveSegments(proxy, present: 1..<4)
            let one = try await proxy.get(Self.path(.segment(1), track: "ep")).text
            let start = (try Self.pts(1) - epoch) / 90
            // Exact in ticks: the whole-millisecond start maps to epoch + start × 90, not to the segment's
            // PTS (which can be up to 89 ticks later).
            #expect(one.contains(TimestampMap(mpegts: epoch + start * 90, local: start).headerLine))
            #expect(one.contains("00:00:03.000 --> 00:00:05.750"))
            // Segment 3 restarts the loop at seg000's PTS: on the epoch's timeline it is at 0 again.
            let three = try await proxy.get(Self.path(.segment(3), track: "ep")).text
            #expect(three.contains("X-TIMESTAMP-MAP=MPEGTS:\(epoch),LOCAL:00:00:00.000"))
            #expect(three.contains("00:00:00.500 --> 00:00:02.500"))
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

    @Test(arguments: [("0", "EVENT"), ("7", "EVENT"), ("42", "VOD")])
    func anEventOrVODSubtitlePlaylistMirrorsTheVideosMediaSequence(sequence: String, type: String) async throws {
        try await withProxy(Self.config) { proxy in
            let video = String(decoding: EventPlaylistRouteTests.videoPlaylist(segments: 2, type: type, ended: type == "VOD"), as: UTF8.self)
                .replacingOccurrences(of: "MEDIA-SEQUENCE:0", with: "MEDIA-SEQUENCE:\(sequence)")
            EventPlaylistRouteTests.serve(proxy, Array(video.utf8))
            let playlist = try await proxy.get(Self.path(.playlist)).text
            #expect(playlist.contains("#EXT-X-MEDIA-SEQUENCE:\(sequence)\n"))
            #expect(Self.uris(playlist) == ["0.vtt", "1.vtt"])
        }
    }
}

/// The once-per-key notices are bounded: keys can carry client-chosen paths.
@Suite struct OnceNoticesTests {
    @Test func aKeyIsFirstOnceThenNotAgain() {
        let notices = OnceNotices()
        #expect(notices.isFirst("a"))
        #expect(!notices.isFirst("a"))
        #expect(notices.isFirst("b"))
    }

    @Test func pastItsCapacityTheSetStartsAgainInsteadOfGrowing() {
        let notices = OnceNotices()
        #expect(notices.isFirst("kept"))
        for index in 1..<OnceNotices.capacity { #expect(notices.isFirst("key \(index)")) }
        // Full: the key first seen is still known until one more new key arrives and the set starts again.
        #expect(!notices.isFirst("kept"))
        #expect(notices.isFirst("one more"))
        #expect(notices.isFirst("kept"))
        #expect(!notices.isFirst("one more"))
    }
}
