import Foundation
import HLS
import Testing
import TestSupport
@testable import Proxy

/// An EVENT or live video playlist that lists no segment yet: the subtitle playlist lists none either,
/// has no ENDLIST and the video's target duration (RFC 8216 §6.2.1: EVENT segments are never removed
/// and the target duration never changes), so the first real segment only adds to it.
@Suite struct EmptyGrowingPlaylistRouteTests {
    typealias Event = EventPlaylistRouteTests

    @Test func anEventWithNoSegmentsYetGetsAnEmptyGrowingPlaylistThatTheFirstSegmentOnlyAddsTo() async throws {
        try await withProxy(Event.config(masterTTL: 0.2)) { proxy in
            Event.serve(proxy, Event.videoPlaylist(segments: 0))
            for track in ["en", "one"] {
                let empty = try await proxy.get(Event.path(.playlist, track: track))
                #expect(empty.status == 200)
                #expect(Event.segmentCount(empty.text) == 0, "\(track):\n\(empty.text)")
                #expect(!empty.text.contains("#EXT-X-ENDLIST"))
                #expect(empty.text.contains("#EXT-X-TARGETDURATION:4\n"))
                #expect(empty.text.contains("#EXT-X-PLAYLIST-TYPE:EVENT\n"))
                SequenceOverflowRouteTests.expectValidPlaylist(empty.text, "empty EVENT, \(track)")
            }
            #expect(try await proxy.get(Event.path(.segment(0))).status == 404)
            Event.serve(proxy, Event.videoPlaylist(segments: 1))
            let grown = try await Event.playlist(proxy) { Event.segmentCount($0) == 1 }
            #expect(grown.contains("#EXT-X-TARGETDURATION:4\n"))
            #expect(grown.contains("#EXTINF:4,\n0.vtt\n"))
        }
    }

    @Test func aLiveWindowWithNoSegmentsYetGetsAnEmptyPlaylistAtItsMediaSequence() async throws {
        try await withProxy(LiveWindowRouteTests.config) { proxy in
            Event.serve(proxy, Array("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:7\n".utf8))
            let empty = try await proxy.get(Event.path(.playlist))
            #expect(empty.status == 200)
            #expect(Event.segmentCount(empty.text) == 0, "\(empty.text)")
            #expect(!empty.text.contains("#EXT-X-ENDLIST"))
            #expect(!empty.text.contains("#EXT-X-PLAYLIST-TYPE"))
            #expect(empty.text.contains("#EXT-X-TARGETDURATION:6\n"))
            #expect(empty.text.contains("#EXT-X-MEDIA-SEQUENCE:7\n"))
            SequenceOverflowRouteTests.expectValidPlaylist(empty.text, "empty live window")
            for sequence in [0, 7] { #expect(try await proxy.get(Event.path(.segment(sequence))).status == 404, "segment \(sequence)") }
        }
    }

    @Test func anEventsLastSegmentFileKeepsItsBytesWhenEndListArrives() async throws {
        try await withProxy(Event.config(masterTTL: 0.2)) { proxy in
            Event.serve(proxy, Event.videoPlaylist(segments: 1))
            let growing = try await proxy.get(Event.path(.segment(0)))
            #expect(growing.status == 200)
            Event.serve(proxy, Event.videoPlaylist(segments: 1, ended: true))
            _ = try await Event.playlist(proxy) { $0.contains("#EXT-X-ENDLIST") }
            let ended = try await proxy.get(Event.path(.segment(0)))
            #expect(ended.body == growing.body, "\(growing.text)\n---\n\(ended.text)")
        }
    }
}
