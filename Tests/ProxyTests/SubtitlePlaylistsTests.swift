import HLS
import Testing
@testable import Proxy

/// A timeline keeps the subtitle playlists made from it, each under the inputs it was made from.
@Suite struct SubtitlePlaylistsTests {
    static let vod = SubtitlePlaylistShape(playlistType: "VOD")

    @Test func equalInputsGetTheKeptPlaylistWithoutMakingItAgain() {
        let playlists = SubtitlePlaylists()
        var made = 0
        let inputs = SubtitlePlaylists.Inputs.segmented(durations: [6, 6, 4.5], shape: Self.vod, firstSequence: nil)
        let first = playlists.playlist(inputs) { made += 1; return Array("one".utf8) }
        let second = playlists.playlist(inputs) { made += 1; return Array("two".utf8) }
        #expect(made == 1)
        #expect(second.bytes == first.bytes && second.etag == first.etag)
        #expect(first.etag == TaggedBody(Array("one".utf8)).etag)
    }

    @Test func anyChangedInputMakesItsOwnPlaylist() {
        var event = Self.vod
        event.playlistType = "EVENT"
        var cut = Self.vod
        cut.discontinuities = [2]
        let variants: [SubtitlePlaylists.Inputs] = [
            .segmented(durations: [6, 6], shape: Self.vod, firstSequence: nil),
            .segmented(durations: [6, 6.5], shape: Self.vod, firstSequence: nil),
            .segmented(durations: [6, 6], shape: event, firstSequence: nil),
            .segmented(durations: [6, 6], shape: cut, firstSequence: nil),
            .segmented(durations: [6, 6], shape: Self.vod, firstSequence: 7),
            .single(duration: 12, shape: Self.vod),
            .single(duration: 12.5, shape: Self.vod),
        ]
        // Against the first, kept: each other makes its own playlist.
        for inputs in variants.dropFirst() {
            let playlists = SubtitlePlaylists()
            _ = playlists.playlist(variants[0]) { Array("first".utf8) }
            var made = false
            let body = playlists.playlist(inputs) { made = true; return Array("own".utf8) }
            #expect(made && body.bytes == Array("own".utf8), "\(inputs)")
            #expect(playlists.count == 2)
        }
    }

    @Test func pastItsCapacityAPlaylistIsMadeButNotKept() {
        let playlists = SubtitlePlaylists()
        for length in 1...(SubtitlePlaylists.capacity + 3) {
            _ = playlists.playlist(.single(duration: Double(length), shape: Self.vod)) { Array(repeating: 0x41, count: length) }
        }
        #expect(playlists.count == SubtitlePlaylists.capacity)
        var made = 0
        let beyond = SubtitlePlaylists.Inputs.single(duration: 999, shape: Self.vod)
        _ = playlists.playlist(beyond) { made += 1; return [1] }
        _ = playlists.playlist(beyond) { made += 1; return [1] }
        #expect(made == 2)
    }

    @Test func copiesOfATimelineShareTheirPlaylists() {
        let timeline = VideoTimeline(durations: [6], playlistType: "VOD")
        let copy = timeline
        _ = timeline.playlists.playlist(.single(duration: 6, shape: Self.vod)) { [1] }
        #expect(copy.playlists.count == 1)
    }
}
