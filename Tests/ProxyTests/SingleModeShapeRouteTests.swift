import Foundation
import HLS
import Testing
import TestSupport
@testable import Proxy

/// A `single` track on a VOD whose playlist sets EXT-X-DISCONTINUITY-SEQUENCE or opens on a
/// discontinuity: its one-segment playlist says the same (RFC 8216 §6.2.4: renditions' discontinuity
/// sequence numbers agree), so a player matching renditions by discontinuity does not stall.
@Suite struct SingleModeShapeRouteTests {
    typealias Event = EventPlaylistRouteTests

    static func vod(header: String) -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n\(header)"
        for index in 0..<3 { text += "#EXTINF:4.000000,\nseg00\(index).ts\n" }
        return Array((text + "#EXT-X-ENDLIST\n").utf8)
    }

    @Test func aSingleTrackWritesTheVideosDiscontinuitySequenceAndMediaSequence() async throws {
        try await withProxy(Event.config(masterTTL: 0.2)) { proxy in
            Event.serve(proxy, Self.vod(header: "#EXT-X-MEDIA-SEQUENCE:40\n#EXT-X-DISCONTINUITY-SEQUENCE:5\n#EXT-X-PLAYLIST-TYPE:VOD\n"))
            let single = try await proxy.get(Event.path(.playlist, track: "one")).text
            #expect(single == """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:12
                #EXT-X-MEDIA-SEQUENCE:40
                #EXT-X-DISCONTINUITY-SEQUENCE:5
                #EXT-X-PLAYLIST-TYPE:VOD
                #EXTINF:12,
                0.vtt
                #EXT-X-ENDLIST

                """)
            let segmented = try await proxy.get(Event.path(.playlist, track: "en")).text
            #expect(segmented.contains("#EXT-X-DISCONTINUITY-SEQUENCE:5\n"))
            #expect(try await proxy.get(Event.path(.segment(0), track: "one")).status == 200)
        }
    }

    @Test func aSingleTrackOnAVODThatOpensOnADiscontinuityOpensOnOneToo() async throws {
        try await withProxy(Event.config(masterTTL: 0.2)) { proxy in
            Event.serve(proxy, Self.vod(header: "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-DISCONTINUITY\n"))
            let single = try await proxy.get(Event.path(.playlist, track: "one")).text
            #expect(single.contains("#EXT-X-DISCONTINUITY-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-DISCONTINUITY\n#EXTINF:12,\n0.vtt\n"), "\(single)")
            #expect(!proxy.logLines.contains { $0.contains("single-mode subtitle track served segmented") }, "still one file")
            SequenceOverflowRouteTests.expectValidPlaylist(single, "single with a leading discontinuity")
        }
    }
}
