@testable import Proxy
import TestSupport
import Testing

/// A subtitle playlist's request starts loading its track's cues, so the first file's request finds
/// them loaded or joins the load in flight (`SubtitleResponder.startLoadingCues`). Over real sockets
/// against the real proxy and the fixture origin.
@Suite struct SubtitleCuePrefetchTests {
    static let config = Self.config()

    static func config(extra: String = "") -> String {
        """
        {
          "mounts": { "origin": { "origin": "ORIGIN" } },\(extra)
          "subtitles": [
            { "name": "vod", "masters": ["/origin/vod-ts/master.m3u8"],
              "tracks": [
                { "id": "en", "name": "English", "language": "en", "source": "/subtitles/en.vtt" },
                { "id": "fr", "name": "Français", "language": "fr", "source": "/subtitles/fr.vtt" }
              ] }
          ]
        }
        """
    }

    static func url(_ track: String, _ resource: SubtitleURL.Resource) -> String {
        SubtitleURL(setName: "vod", trackID: track, masterTarget: "/origin/vod-ts/master.m3u8", resource: resource).path
    }

    static func cueCount(_ text: String) -> Int {
        text.split(separator: "\n").filter { $0.contains("-->") }.count
    }

    @Test func aPlaylistRequestFetchesAndParsesTheSourceBeforeAnyFileIsAskedFor() async throws {
        try await withProxy(Self.config) { proxy in
            let playlist = try await proxy.get(Self.url("en", .playlist))
            #expect(playlist.status == 200)
            try await eventually("the sidecar is fetched without a file request") {
                proxy.origin.hits("/subtitles/en.vtt") == 1
            }
            let loads = proxy.service.handler.caches.subtitleLoads
            #expect(loads.loadsStarted == 1)
            let file = try await proxy.get(Self.url("en", .segment(0)))
            #expect(file.status == 200)
            #expect(Self.cueCount(file.text) > 0)
            #expect(file.text.contains("X-TIMESTAMP-MAP=MPEGTS:"), "the prefetched cues carry the video's PTS")
            #expect(proxy.origin.hits("/subtitles/en.vtt") == 1, "the file is made from the prefetched cues")
            #expect(loads.loadsStarted == 1)
            #expect(proxy.origin.hits("/subtitles/fr.vtt") == 0, "only the asked-for track is loaded")
        }
    }

    @Test func aFileAskedForWhileThePrefetchIsInFlightJoinsIt() async throws {
        try await withProxy(Self.config) { proxy in
            proxy.origin.setFault("/subtitles/en.vtt", .delay(.seconds(2)))
            let playlist = try await proxy.get(Self.url("en", .playlist))
            #expect(playlist.status == 200)
            #expect(proxy.service.handler.caches.subtitles.counts.bytes == 0, "the playlist did not wait for the slow source")
            // The load has started (its fetch is held by the delay) before the file is asked for.
            try await eventually { proxy.service.handler.caches.subtitleLoads.loadsStarted == 1 }
            let file = try await proxy.get(Self.url("en", .segment(0)))
            #expect(file.status == 200)
            #expect(Self.cueCount(file.text) > 0)
            #expect(proxy.service.handler.caches.subtitleLoads.loadsStarted == 1, "one load for both requests")
        }
    }

    @Test func aPlaylistWhoseCuesAreCachedStartsNoLoad() async throws {
        try await withProxy(Self.config) { proxy in
            let file = try await proxy.get(Self.url("en", .segment(0)))
            #expect(Self.cueCount(file.text) > 0)
            #expect(proxy.service.handler.caches.subtitleLoads.loadsStarted == 1)
            let playlist = try await proxy.get(Self.url("en", .playlist))
            #expect(playlist.status == 200)
            // The second track's playlist is answered from memory (the timeline is cached) and loads its
            // own cues: once that load is seen, a load the first track's playlist started would be too.
            _ = try await proxy.get(Self.url("fr", .playlist))
            try await eventually { proxy.origin.hits("/subtitles/fr.vtt") == 1 }
            #expect(proxy.service.handler.caches.subtitleLoads.loadsStarted == 2)
            #expect(proxy.origin.hits("/subtitles/en.vtt") == 1)
        }
    }

    @Test func aPlaylistAnsweredFromMemoryStartsItsTracksLoadToo() async throws {
        try await withProxy(Self.config) { proxy in
            _ = try await proxy.get(Self.url("en", .playlist))
            try await eventually { proxy.origin.hits("/subtitles/en.vtt") == 1 }
            let immediateBefore = proxy.service.handler.responders.subtitles.immediateAnswers.value
            let playlist = try await proxy.get(Self.url("fr", .playlist))
            #expect(playlist.status == 200)
            #expect(proxy.service.handler.responders.subtitles.immediateAnswers.value == immediateBefore + 1, "answered on the loop")
            try await eventually("the answer from memory started the track's load") {
                proxy.origin.hits("/subtitles/fr.vtt") == 1
            }
            let file = try await proxy.get(Self.url("fr", .segment(0)))
            #expect(Self.cueCount(file.text) > 0)
            #expect(proxy.origin.hits("/subtitles/fr.vtt") == 1)
        }
    }

    @Test func aMissingSourceFoundByThePrefetchGivesTheFileTheUsualEmptyFallback() async throws {
        try await withProxy(Self.config) { proxy in
            proxy.origin.setFault("/subtitles/en.vtt", .status(404))
            _ = try await proxy.get(Self.url("en", .playlist))
            try await eventually { proxy.logLines.contains { $0.contains("subtitle source unusable") } }
            let file = try await proxy.get(Self.url("en", .segment(0)))
            #expect(file.status == 200)
            #expect(file.text.hasPrefix("WEBVTT"))
            #expect(Self.cueCount(file.text) == 0)
            #expect(file.header("Cache-Control") == "max-age=5", "kept no longer than the fallback TTL")
            #expect(proxy.origin.hits("/subtitles/en.vtt") == 1)
        }
    }

    @Test func cuesTheCacheWillNotKeepAreHeldForTheFirstFileNotLoadedTwice() async throws {
        for cache in [#"{ "max_bytes": 0 }"#, #"{ "subtitle_ttl_seconds": 0 }"#] {
            try await withProxy(Self.config(extra: #" "cache": \#(cache),"#)) { proxy in
                _ = try await proxy.get(Self.url("en", .playlist))
                let loads = proxy.service.handler.caches.subtitleLoads
                // The load is over, so only the prefetch's hold keeps its cues.
                try await eventually { loads.loadsStarted == 1 && loads.loadsInFlight == 0 }
                let file = try await proxy.get(Self.url("en", .segment(0)))
                #expect(Self.cueCount(file.text) > 0, "\(cache)")
                #expect(proxy.origin.hits("/subtitles/en.vtt") == 1, "\(cache): the file found the held cues")
                #expect(proxy.service.handler.caches.subtitleLoads.loadsStarted == 1, "\(cache)")
            }
        }
    }

    @Test func withOneOriginExchangeSlotThePlaylistIsNotShedForItsOwnPrefetch() async throws {
        let config = Self.config(extra: #" "limits": { "max_origin_exchanges": 1 },"#)
        try await withProxy(config) { proxy in
            proxy.origin.setFault("/subtitles/en.vtt", .delay(.milliseconds(300)))
            let playlist = try await proxy.get(Self.url("en", .playlist))
            #expect(playlist.status == 200, "its master and variant fetches come before the load's")
            let file = try await proxy.get(Self.url("en", .segment(0)))
            #expect(file.status == 200, "the file joins the load rather than asking for a slot of its own")
            #expect(Self.cueCount(file.text) > 0)
            #expect(proxy.origin.hits("/subtitles/en.vtt") == 1)
        }
    }

    @Test func aHeadForThePlaylistStartsNoLoad() async throws {
        try await withProxy(Self.config) { proxy in
            let head = try await proxy.get(Self.url("en", .playlist), method: "HEAD")
            #expect(head.status == 200)
            // A GET for the other track's playlist loads its cues; once that is seen, a load the HEAD
            // started would be seen too.
            _ = try await proxy.get(Self.url("fr", .playlist))
            try await eventually { proxy.origin.hits("/subtitles/fr.vtt") == 1 }
            #expect(proxy.origin.hits("/subtitles/en.vtt") == 0)
            #expect(proxy.service.handler.caches.subtitleLoads.loadsStarted == 1)
        }
    }

    @Test func aPrefetchedLoadCountsNoCacheMissOfItsOwn() async throws {
        try await withProxy(Self.config) { proxy in
            _ = try await proxy.get(Self.url("en", .playlist))
            try await eventually { proxy.origin.hits("/subtitles/en.vtt") == 1 }
            try await eventually { proxy.service.handler.caches.subtitles.counts.bytes > 0 }
            #expect(proxy.service.handler.caches.subtitles.counts.misses == 0)
            _ = try await proxy.get(Self.url("en", .segment(0)))
            #expect(proxy.service.handler.caches.subtitles.counts.misses == 0)
            #expect(proxy.service.handler.caches.subtitles.counts.hits >= 1)
        }
    }
}
