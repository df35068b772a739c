import Foundation
import TestSupport
import Testing

/// The master route over real sockets: fetch, rewrite, serve; media playlists and other bodies pass.
@Suite struct MasterRouteTests {
    @Test func masterFromAnHTTPMountGetsEveryTrackAndEveryVariantTheGroup() async throws {
        try await withProxy { proxy in
            let response = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/vnd.apple.mpegurl")
            #expect(response.header("X-HLS-Proxy-Route") == "master")
            #expect(response.header("Access-Control-Allow-Origin") == "*")
            let lines = response.text.split(separator: "\n", omittingEmptySubsequences: false)
            let media = lines.filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }
            #expect(media.count == 3)
            #expect(media.contains { $0.contains("LANGUAGE=\"en\"") && $0.contains("DEFAULT=YES") && $0.contains("AUTOSELECT=YES") })
            #expect(media.contains { $0.contains("LANGUAGE=\"es\"") && $0.contains("NAME=\"Español\"") })
            let variants = lines.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
            #expect(variants.count == 2)
            #expect(variants.allSatisfy { $0.components(separatedBy: "SUBTITLES=").count == 2 })
            // Untouched lines survive byte for byte.
            #expect(lines.contains("v0/index.m3u8"))
            #expect(lines.first == "#EXTM3U")
        }
    }

    @Test func masterOnAFileMountIsRewrittenToo() async throws {
        try await withProxy { proxy in
            let response = try await proxy.get("/files/vod-ts/master.m3u8")
            #expect(response.status == 200)
            #expect(response.header("X-HLS-Proxy-Route") == "master")
            #expect(response.text.components(separatedBy: "#EXT-X-MEDIA:TYPE=SUBTITLES").count == 4)
        }
    }

    @Test func subtitleURIsInTheMasterResolveBackToTheProxy() async throws {
        try await withProxy { proxy in
            let master = try await proxy.get("/origin/vod-ts/master.m3u8?session=abc")
            let uris = master.text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:") }.compactMap { line -> String? in
                guard let start = line.range(of: "URI=\"") else { return nil }
                return String(line[start.upperBound...].prefix { $0 != "\"" })
            }
            #expect(uris.count == 3)
            for uri in uris {
                #expect(uri.hasPrefix("/_hls-proxy/v1/vod/"))
                let playlist = try await proxy.get(uri)
                #expect(playlist.status == 200, "\(uri)")
                #expect(playlist.header("X-HLS-Proxy-Route") == "subtitle-playlist")
            }
        }
    }

    @Test func aColdMasterCountsOneMasterCacheMissAndItsRepeatOneHit() async throws {
        try await withProxy { proxy in
            let master = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(master.header("X-HLS-Proxy-Route") == "master")
            let cold = try await proxy.get("/metrics").text
            #expect(Self.sample(cold, #"hls_proxy_cache_misses_total{cache="master"}"#) == 1)
            #expect(Self.sample(cold, #"hls_proxy_cache_hits_total{cache="master"}"#) == 0)
            _ = try await proxy.get("/origin/vod-ts/master.m3u8")
            let warm = try await proxy.get("/metrics").text
            #expect(Self.sample(warm, #"hls_proxy_cache_misses_total{cache="master"}"#) == 1)
            #expect(Self.sample(warm, #"hls_proxy_cache_hits_total{cache="master"}"#) == 1)
        }
    }

    /// The value of the `/metrics` sample line that starts with `name` (labels included), if any.
    static func sample(_ text: String, _ name: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Int(line.dropFirst(name.count + 1))
        }
        return nil
    }

    @Test func rewritingIsServedFromCacheWithinTheTTL() async throws {
        try await withProxy { proxy in
            let first = try await proxy.get("/origin/vod-ts/master.m3u8")
            let second = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(first.body == second.body)
            #expect(proxy.origin.hits("/vod-ts/master.m3u8") == 1)
        }
    }

    @Test func existingSubtitleGroupsAreJoinedNotDuplicated() async throws {
        try await withProxy { proxy in
            let response = try await proxy.get("/origin/corpus/master/apple-bipbop-16x9-variant-8-subtitles.m3u8")
            #expect(response.status == 200)
            for line in response.text.split(separator: "\n") where line.hasPrefix("#EXT-X-STREAM-INF:") {
                #expect(line.components(separatedBy: "SUBTITLES=").count == 2, "\(line)")
            }
            for line in response.text.split(separator: "\n") where line.hasPrefix("#EXT-X-I-FRAME-STREAM-INF:") {
                #expect(!line.contains("SUBTITLES="))
            }
        }
    }

    @Test func aRedirectedMasterKeepsItsRelativeURIsPointingAtTheRealDirectory() async throws {
        try await withProxy { proxy in
            proxy.origin.setFault("/broken/master.m3u8", .redirect(proxy.origin.baseURL + "/vod-ts/master.m3u8"))
            let response = try await proxy.get("/origin/broken/master.m3u8")
            #expect(response.status == 200)
            #expect(response.header("X-HLS-Proxy-Route") == "master")
            let uris = response.text.split(separator: "\n").filter { !$0.hasPrefix("#") }
            // RFC 3986 §5.1: the base is the URL after the redirect, /vod-ts/, mapped back onto the mount.
            #expect(uris == ["/origin/vod-ts/v0/index.m3u8", "/origin/vod-ts/v1/index.m3u8"])
            let variant = try await proxy.get(String(uris[0]))
            #expect(variant.header("Location") == proxy.origin.baseURL + "/vod-ts/v0/index.m3u8")
            // The subtitle timeline follows the redirect too: three 4-second segments.
            let line = try #require(response.text.split(separator: "\n").first { $0.contains("LANGUAGE=\"en\"") })
            let start = try #require(line.range(of: "URI=\""))
            let playlist = try await proxy.get(String(line[start.upperBound...].prefix { $0 != "\"" }))
            #expect(playlist.text.components(separatedBy: "#EXTINF:4").count == 4)
        }
    }

    @Test func aMediaPlaylistOnAMasterPathPassesUnchanged() async throws {
        try await withProxy { proxy in
            let original = try #require(FileManager.default.contents(atPath: Fixtures.directory.path + "/vod-ts/v0/index.m3u8"))
            proxy.origin.setFault("/broken/index.m3u8", .body(Array(original), contentType: "application/vnd.apple.mpegurl"))
            let response = try await proxy.get("/origin/broken/index.m3u8")
            #expect(response.status == 200)
            #expect(response.body == Array(original))
            #expect(response.header("X-HLS-Proxy-Route") == "playlist")
        }
    }

    @Test func aNonPlaylistBodyOnAMasterPathPassesUnchanged() async throws {
        try await withProxy { proxy in
            proxy.origin.setFault("/broken/page", .body(Array("<html>maintenance</html>".utf8), contentType: "text/html"))
            let response = try await proxy.get("/origin/broken/page")
            #expect(response.status == 200)
            #expect(response.text == "<html>maintenance</html>")
            #expect(response.header("Content-Type") == "text/html")
            #expect(response.header("X-HLS-Proxy-Route") == "passthrough")
        }
    }

    @Test func injectedAndForwardedHeadersReachTheOrigin() async throws {
        try await withProxy { proxy in
            _ = try await proxy.get("/origin/vod-ts/master.m3u8", headers: [("Cookie", "viewer=42"), ("X-Not-Forwarded", "1")])
            let seen = try #require(proxy.origin.lastHeaders("/vod-ts/master.m3u8"))
            #expect(seen["X-Origin-Token"] == "secret-token")
            #expect(seen["Cookie"] == "viewer=42")
            #expect(seen["X-Not-Forwarded"] == nil)
            // The secret never shows up in the logs.
            #expect(!proxy.logLines.contains { $0.contains("secret-token") })
        }
    }

    @Test func headAndRangeWorkOnTheRewrittenMaster() async throws {
        try await withProxy { proxy in
            let full = try await proxy.get("/origin/vod-ts/master.m3u8")
            let head = try await proxy.get("/origin/vod-ts/master.m3u8", method: "HEAD")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == String(full.body.count))
            #expect(head.body.isEmpty)
            let part = try await proxy.get("/origin/vod-ts/master.m3u8", headers: [("Range", "bytes=0-6")])
            #expect(part.status == 206)
            #expect(part.text == "#EXTM3U")
            #expect(part.header("Content-Range") == "bytes 0-6/\(full.body.count)")
            let suffix = try await proxy.get("/origin/vod-ts/master.m3u8", headers: [("Range", "bytes=-5")])
            #expect(suffix.body == Array(full.body.suffix(5)))
            let beyond = try await proxy.get("/origin/vod-ts/master.m3u8", headers: [("Range", "bytes=999999-")])
            #expect(beyond.status == 416)
            #expect(beyond.header("Content-Range") == "bytes */\(full.body.count)")
        }
    }

    @Test func corsPreflightIsAnswered() async throws {
        try await withProxy { proxy in
            let response = try await proxy.get("/origin/vod-ts/master.m3u8", method: "OPTIONS", headers: [
                ("Origin", "https://player.example"), ("Access-Control-Request-Method", "GET"),
                ("Access-Control-Request-Headers", "range"),
            ])
            #expect(response.status == 204)
            #expect(response.header("Access-Control-Allow-Origin") == "*")
            #expect(response.header("Access-Control-Allow-Methods") == "GET, HEAD, OPTIONS")
            #expect(response.header("Access-Control-Allow-Headers") == "range")
            #expect(response.header("X-HLS-Proxy-Route") == "preflight")
        }
    }
}
