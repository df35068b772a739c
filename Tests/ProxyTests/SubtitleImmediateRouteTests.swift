import Foundation
import Testing
import TestSupport
@testable import Proxy

/// Subtitle playlists and WebVTT files answered on the loop thread once everything they are made of is
/// cached (`SubtitleResponder.immediate`): the same response as the first, off-loop one, and only when
/// nothing has to be fetched.
@Suite struct SubtitleImmediateRouteTests {
    /// The standard config's subtitle URLs for a master: each track's playlist and every file it lists.
    static func subtitleURLs(_ proxy: ProxyHarness, master: String) async throws -> [String] {
        var urls: [String] = []
        for language in ["en", "fr", "es"] {
            let playlist = try await SubtitleRouteTests.trackURI(proxy, master: master, language: language)
            urls.append(playlist)
            let text = try await proxy.get(playlist).text
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                urls.append(SubtitleRouteTests.sibling(playlist, String(line)))
            }
        }
        return urls
    }

    /// Answers taken on the loop thread so far.
    static func immediateAnswers(_ proxy: ProxyHarness) -> Int {
        proxy.service.handler.responders.subtitles.immediateAnswers.value
    }

    /// Every field but Date, in order, with the status line and body: what must not differ between the paths.
    static func comparable(_ response: RawResponse) -> [String] {
        [response.statusLine] + response.headers.filter { $0.0.lowercased() != "date" }.map { "\($0.0): \($0.1)" }
            + [String(decoding: response.body, as: UTF8.self)]
    }

    @Test(arguments: ["/origin/vod-ts/master.m3u8", "/files/vod-ts/master.m3u8", DiscontinuityRouteTests.master])
    func eachSubtitleRouteAnsweredFromMemoryMatchesItsFirstAnswerWhole(master: String) async throws {
        let disc = master == DiscontinuityRouteTests.master
        let config = disc ? DiscontinuityRouteTests.config : ProxyHarness.standardConfig
        var urls: [String] = []
        if disc {
            for track in ["en", "one", "fixed"] {
                let playlist = DiscontinuityRouteTests.path(.playlist, track: track)
                urls.append(playlist)
                try await withProxy(config) { proxy in
                    for line in try await proxy.get(playlist).text.split(separator: "\n") where !line.hasPrefix("#") {
                        urls.append(SubtitleRouteTests.sibling(playlist, String(line)))
                    }
                }
            }
        } else {
            try await withProxy(config) { proxy in urls = try await Self.subtitleURLs(proxy, master: master) }
        }
        // Playlists, the single-mode file, and several segments of each segmented track (in vod-disc,
        // segments of later parts too, whose X-TIMESTAMP-MAP comes from that part's cached PTS).
        #expect(urls.count >= (disc ? 15 : 10))
        for url in urls {
            // A fresh proxy for each URL, so its first request finds nothing cached and goes off the loop.
            try await withProxy(config) { proxy in
                let first = try await proxy.get(url)
                #expect(first.status == 200, "\(url)")
                #expect(Self.immediateAnswers(proxy) == 0, "\(url): the first request had nothing cached")
                let second = try await proxy.get(url)
                #expect(Self.immediateAnswers(proxy) == 1, "\(url): the second request was answered from memory")
                #expect(Self.comparable(second) == Self.comparable(first), "\(url)")
                // The third is the kept answer (SubtitleAnswers) on the directory mount. The http mount
                // forwards Cookie, so its keys depend on the request and nothing is kept; in vod-disc a
                // later part's segment, whose map comes from the PTS cache, is made again. The same bytes
                // every way.
                let kept = proxy.service.handler.responders.subtitles.answers.counts.answers
                if disc {
                    #expect(kept <= 1, "\(url)")
                } else {
                    #expect(kept == (master.hasPrefix("/files/") ? 1 : 0), "\(url)")
                }
                let third = try await proxy.get(url)
                #expect(Self.comparable(third) == Self.comparable(first), "\(url)")
                // HEAD and a conditional request take the same path and are finished as before.
                let head = try await proxy.get(url, method: "HEAD")
                #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == first.header("Content-Length"))
                let etag = try #require(first.header("ETag"))
                let revalidated = try await proxy.get(url, headers: [("If-None-Match", etag)])
                #expect(revalidated.status == 304)
                #expect(Self.immediateAnswers(proxy) == 4)
            }
        }
    }

    /// In vod-disc (its mount forwards nothing) the playlist and the first part's segments are kept
    /// answers; a later part's segment, whose X-TIMESTAMP-MAP comes from that part's cached PTS, is
    /// made again on each request, and is the same.
    @Test func aLaterPartsSegmentIsMadeAgainWhereTheFirstPartsIsKept() async throws {
        for (resource, keptAfter) in [(SubtitleURL.Resource.playlist, 1), (.segment(0), 1), (.segment(1), 1), (.segment(2), 0), (.segment(5), 0)] {
            try await withProxy(DiscontinuityRouteTests.config) { proxy in
                let url = DiscontinuityRouteTests.path(resource)
                let first = try await proxy.get(url)
                #expect(first.status == 200)
                let second = try await proxy.get(url)
                #expect(proxy.service.handler.responders.subtitles.answers.counts.answers == keptAfter, "\(resource)")
                let third = try await proxy.get(url)
                #expect(Self.comparable(second) == Self.comparable(first) && Self.comparable(third) == Self.comparable(first), "\(resource)")
                #expect(Self.immediateAnswers(proxy) == 2, "\(resource)")
            }
        }
    }

    @Test func aCachedSubtitleFileIsAnsweredOnTheLoopWithoutAskingTheOriginAgain() async throws {
        try await withProxy { proxy in
            let playlist = try await SubtitleRouteTests.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: "en")
            _ = try await proxy.get(playlist)
            // The playlist read the timeline; the first file still has cues to load, off the loop.
            #expect(Self.immediateAnswers(proxy) == 0)
            let file = SubtitleRouteTests.sibling(playlist, "0.vtt")
            #expect(try await proxy.get(file).status == 200)
            #expect(Self.immediateAnswers(proxy) == 0)
            let fetched = ["/vod-ts/master.m3u8", "/vod-ts/v0/index.m3u8", "/vod-ts/v0/seg000.ts", "/subtitles/en.vtt"].map { proxy.origin.hits($0) }
            #expect(fetched.allSatisfy { $0 >= 1 })
            // Now the playlist, that file and its neighbour (cut from the same cached cues) need nothing fetched.
            for url in [playlist, file, SubtitleRouteTests.sibling(playlist, "1.vtt")] {
                #expect(try await proxy.get(url).status == 200)
            }
            #expect(Self.immediateAnswers(proxy) == 3)
            #expect(["/vod-ts/master.m3u8", "/vod-ts/v0/index.m3u8", "/vod-ts/v0/seg000.ts", "/subtitles/en.vtt"].map { proxy.origin.hits($0) } == fetched)
        }
    }

    @Test func aSegmentPastTheLastOrOfAnUnknownTrackIsLeftToTheFullPathAndGets404() async throws {
        try await withProxy { proxy in
            let playlist = try await SubtitleRouteTests.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: "en")
            _ = try await proxy.get(SubtitleRouteTests.sibling(playlist, "0.vtt"))
            let before = Self.immediateAnswers(proxy)
            #expect(try await proxy.get(SubtitleRouteTests.sibling(playlist, "3.vtt")).status == 404)
            #expect(try await proxy.get(playlist.replacingOccurrences(of: "/en/", with: "/xx/")).status == 404)
            let single = try await SubtitleRouteTests.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: "es")
            _ = try await proxy.get(SubtitleRouteTests.sibling(single, "0.vtt"))
            #expect(try await proxy.get(SubtitleRouteTests.sibling(single, "1.vtt")).status == 404)
            #expect(Self.immediateAnswers(proxy) == before)
        }
    }

    @Test func aSetWithAnOptionalTrackIsAlwaysResolvedOffTheLoop() async throws {
        // Whether an optional track is listed depends on a probe of its source: never answered from memory.
        let config = ProxyHarness.standardConfig.replacingOccurrences(
            of: "\"source\": \"/subtitles/en.vtt\" }", with: "\"source\": \"/subtitles/en.vtt\", \"optional\": true }")
        #expect(config != ProxyHarness.standardConfig)
        try await withProxy(config) { proxy in
            let playlist = try await SubtitleRouteTests.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: "en")
            for _ in 0..<3 { #expect(try await proxy.get(playlist).status == 200) }
            #expect(Self.immediateAnswers(proxy) == 0)
        }
    }

    @Test func anEmptyFallbackTrackFromMemoryKeepsItsShortCacheLifetime() async throws {
        let config = ProxyHarness.standardConfig.replacingOccurrences(of: "/subtitles/en.vtt", with: "/subtitles/missing.vtt")
        #expect(config != ProxyHarness.standardConfig)
        try await withProxy(config) { proxy in
            let playlist = try await SubtitleRouteTests.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: "en")
            let file = SubtitleRouteTests.sibling(playlist, "0.vtt")
            let first = try await proxy.get(file)
            let second = try await proxy.get(file)
            #expect(Self.immediateAnswers(proxy) == 1)
            #expect(Self.comparable(second) == Self.comparable(first))
            // The fallback's lifetime (cache.fallback_ttl_seconds), not a working track's.
            let working = try await SubtitleRouteTests.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: "fr")
            let workingControl = try await proxy.get(SubtitleRouteTests.sibling(working, "0.vtt")).header("Cache-Control")
            #expect(second.header("Cache-Control") != nil && second.header("Cache-Control") != workingControl)
        }
    }
}
