import Foundation
import TestSupport
import Testing

/// Masters and pass-through playlists whose URIs take every form, served by a real origin: the rewritten
/// lines, and each URI followed through the proxy to the origin object it names.
@Suite struct MasterURIFormRouteTests {
    /// Two `proxy`-mode mounts on sub-paths of one origin, so following a URI fetches the real object;
    /// `/subtitles/` and `/corpus/` lie outside both.
    static let config = """
        {
          "mounts": {
            "ts": { "origin": "ORIGIN/vod-ts", "segments": "proxy" },
            "fmp4": { "origin": "ORIGIN/vod-fmp4", "segments": "proxy" }
          },
          "embedded": { "allow_hosts": ["127.0.0.1"] },
          "subtitles": [ { "name": "s", "masters": ["/ts/forms*.m3u8", "/ts/old.m3u8", "/http/127.0.0.1:*/corpus/forms.m3u8", "/ts/cc-*.m3u8"],
                           "closed_captions": "none",
                           "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "ORIGIN/subtitles/en.vtt" } ] } ],
          "timeouts": { "origin_seconds": 10 }
        }
        """

    static func serve(_ proxy: ProxyHarness, _ path: String, _ text: String) {
        proxy.origin.setFault(path, .body(Array(text.utf8), contentType: "application/vnd.apple.mpegurl"))
    }

    static func uris(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            if !line.hasPrefix("#") { return String(line) }
            guard !line.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES"), let start = line.range(of: "URI=\"") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        }
    }

    /// The body the URI leads to: through the proxy for a path, straight from the origin for an origin URL,
    /// following one redirect (the embedded form redirects what it does not rewrite).
    static func follow(_ uri: String, _ proxy: ProxyHarness, redirects: Int = 1) async throws -> RawResponse {
        let origin = proxy.origin.baseURL
        let response = uri.hasPrefix(origin)
            ? try await TestClient.get(port: proxy.origin.port, String(uri.dropFirst(origin.count))) : try await proxy.get(uri)
        guard response.status == 302, redirects > 0, let location = response.header("Location") else { return response }
        return try await follow(location, proxy, redirects: redirects - 1)
    }

    static func file(_ path: String) throws -> [UInt8] {
        Array(try #require(FileManager.default.contents(atPath: Fixtures.directory.path + path)))
    }

    @Test func everyURIFormInAMasterReachesItsOriginObject() async throws {
        try await withProxy(Self.config) { proxy in
            let origin = proxy.origin.baseURL
            let authority = String(origin.dropFirst("http:".count))
            Self.serve(proxy, "/vod-ts/forms.m3u8", """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="main",URI="/vod-ts/v1/index.m3u8?audio=1"
                #EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO="a"
                /vod-ts/v0/index.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=2
                /subtitles/en.vtt
                #EXT-X-STREAM-INF:BANDWIDTH=3
                \(origin)/vod-ts/v1/index.m3u8?k=1
                #EXT-X-STREAM-INF:BANDWIDTH=4
                \(origin)/vod-fmp4/index.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=5
                https://foreign.example/v.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=6
                \(authority)/vod-ts/v1/index.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=7
                /vod-ts/x/../v0/./index.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=8
                /vod-ts/v%30/index.m3u8
                #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=9,URI="/vod-fmp4/index.m3u8?iframes=1"

                """)
            let master = try await proxy.get("/ts/forms.m3u8")
            #expect(master.status == 200)
            #expect(master.header("X-HLS-Proxy-Route") == "master")
            let uris = Self.uris(master.text)
            #expect(uris == [
                "/ts/v1/index.m3u8?audio=1", "/ts/v0/index.m3u8", "/http/127.0.0.1:\(proxy.origin.port)/subtitles/en.vtt", "/ts/v1/index.m3u8?k=1",
                "/fmp4/index.m3u8", "https://foreign.example/v.m3u8", "/ts/v1/index.m3u8", "/ts/v0/index.m3u8",
                "/ts/v%30/index.m3u8", "/fmp4/index.m3u8?iframes=1",
            ])
            let objects = [
                "/vod-ts/v1/index.m3u8", "/vod-ts/v0/index.m3u8", "/subtitles/en.vtt", "/vod-ts/v1/index.m3u8",
                "/vod-fmp4/index.m3u8", nil, "/vod-ts/v1/index.m3u8", "/vod-ts/v0/index.m3u8", "/vod-ts/v0/index.m3u8",
                "/vod-fmp4/index.m3u8",
            ]
            for (uri, object) in zip(uris, objects) {
                guard let object else { continue }
                let response = try await Self.follow(uri, proxy)
                #expect(response.status == 200, "\(uri)")
                #expect(response.body == (try Self.file(object)), "\(uri)")
            }
        }
    }

    @Test func aPathAbsoluteURIUnderNoMountOnAHostNotAllowlistedBecomesTheOriginURL() async throws {
        let config = Self.config.replacingOccurrences(of: #""embedded": { "allow_hosts": ["127.0.0.1"] },"#, with: "")
        try await withProxy(config) { proxy in
            Self.serve(proxy, "/vod-ts/forms.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n/subtitles/en.vtt?x=1\n")
            let master = try await proxy.get("/ts/forms.m3u8")
            let uris = Self.uris(master.text)
            // Left path-absolute it would name the proxy's root (404): the player goes to the origin instead.
            #expect(uris == [proxy.origin.baseURL + "/subtitles/en.vtt?x=1"])
            let followed = try await Self.follow(uris[0], proxy)
            #expect(followed.status == 200)
            #expect(followed.body == (try Self.file("/subtitles/en.vtt")))
            #expect(try await proxy.get("/subtitles/en.vtt").status == 404)
        }
    }

    @Test func aRedirectedMasterResolvesEveryFormAgainstTheURLItCameFrom() async throws {
        try await withProxy(Self.config) { proxy in
            proxy.origin.setFault("/vod-ts/old.m3u8", .redirect(proxy.origin.baseURL + "/vod-fmp4/moved.m3u8"))
            Self.serve(proxy, "/vod-fmp4/moved.m3u8", """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=1
                index.m3u8?r=1
                #EXT-X-STREAM-INF:BANDWIDTH=2
                /vod-fmp4/index.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=3
                ../vod-ts/v0/index.m3u8

                """)
            let master = try await proxy.get("/ts/old.m3u8")
            #expect(master.header("X-HLS-Proxy-Route") == "master")
            let uris = Self.uris(master.text)
            #expect(uris == ["/fmp4/index.m3u8?r=1", "/fmp4/index.m3u8", "/ts/v0/index.m3u8"])
            for (uri, object) in zip(uris, ["/vod-fmp4/index.m3u8", "/vod-fmp4/index.m3u8", "/vod-ts/v0/index.m3u8"]) {
                let response = try await Self.follow(uri, proxy)
                #expect(response.status == 200, "\(uri)")
                #expect(response.body == (try Self.file(object)), "\(uri)")
            }
        }
    }

    @Test func aMasterReachedInEmbeddedFormMapsItsOwnOriginOntoTheEmbeddedForm() async throws {
        try await withProxy(Self.config) { proxy in
            let origin = proxy.origin.baseURL
            Self.serve(proxy, "/corpus/forms.m3u8", """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=1
                /corpus/media/x.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=2
                \(origin)/corpus/media/y.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=3
                \(origin)/vod-ts/v0/index.m3u8

                """)
            let embedded = "/http/127.0.0.1:\(proxy.origin.port)"
            let master = try await proxy.get(embedded + "/corpus/forms.m3u8")
            #expect(master.header("X-HLS-Proxy-Route") == "master")
            #expect(Self.uris(master.text) == [embedded + "/corpus/media/x.m3u8", embedded + "/corpus/media/y.m3u8", "/ts/v0/index.m3u8"])
            // The embedded form redirects what it does not rewrite: the Location is the origin object.
            let followed = try await proxy.get(embedded + "/corpus/media/x.m3u8")
            #expect(followed.status == 302)
            #expect(followed.header("Location") == origin + "/corpus/media/x.m3u8")
        }
    }

    @Test func aPassThroughPlaylistWithPathAbsoluteSegmentsKeepsThemOnTheMount() async throws {
        try await withProxy(Self.config) { proxy in
            let authority = String(proxy.origin.baseURL.dropFirst("http:".count))
            Self.serve(proxy, "/vod-ts/v0/absolute.m3u8", """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXTINF:4.0,
                /vod-ts/v0/seg000.ts
                #EXTINF:4.0,
                \(authority)/vod-ts/v0/seg001.ts?t=1
                #EXTINF:4.0,
                /vod-fmp4/seg002.m4s
                #EXT-X-ENDLIST

                """)
            let playlist = try await proxy.get("/ts/v0/absolute.m3u8")
            #expect(playlist.status == 200)
            let uris = Self.uris(playlist.text)
            #expect(uris == ["/ts/v0/seg000.ts", "/ts/v0/seg001.ts?t=1", "/fmp4/seg002.m4s"])
            for (uri, object) in zip(uris, ["/vod-ts/v0/seg000.ts", "/vod-ts/v0/seg001.ts", "/vod-fmp4/seg002.m4s"]) {
                let segment = try await proxy.get(uri)
                #expect(segment.status == 200, "\(uri)")
                #expect(segment.body == (try Self.file(object)), "\(uri)")
            }
        }
    }

    @Test func closedCaptionsNoneGoesOnEveryVariantThroughTheProxy() async throws {
        try await withProxy(Self.config) { proxy in
            Self.serve(proxy, "/vod-ts/cc-plain.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv0/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2,CLOSED-CAPTIONS=NONE\nv1/index.m3u8\n")
            let master = try await proxy.get("/ts/cc-plain.m3u8")
            let variants = master.text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
            #expect(variants == [
                #"#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=NONE,SUBTITLES="subs""#,
                #"#EXT-X-STREAM-INF:BANDWIDTH=2,CLOSED-CAPTIONS=NONE,SUBTITLES="subs""#,
            ])
            #expect(!proxy.logLines.contains { $0.contains("closed_captions left unchanged") })
        }
    }

    @Test func aMasterWithACaptionGroupOnSomeVariantsIsLeftWithoutNoneAndLoggedOnce() async throws {
        try await withProxy(Self.config) { proxy in
            Self.serve(proxy, "/vod-ts/cc-mixed.m3u8", """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"
                #EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS="cc"
                v0/index.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=2
                v1/index.m3u8

                """)
            let first = try await proxy.get("/ts/cc-mixed.m3u8")
            let second = try await proxy.get("/ts/cc-mixed.m3u8")
            #expect(first.header("X-HLS-Proxy-Route") == "master")
            #expect(first.body == second.body)
            #expect(!first.text.contains("NONE"))
            #expect(first.text.contains("#EXT-X-STREAM-INF:BANDWIDTH=2,SUBTITLES=\"subs\"\n"))
            // The second request is the cached rewrite: one warning.
            #expect(proxy.logLines.filter { $0.contains("closed_captions left unchanged") && $0.contains("/ts/cc-mixed.m3u8") }.count == 1)
        }
    }
}
