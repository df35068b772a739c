@testable import Proxy
import TestSupport
import Testing

/// Every form of URI an origin's master holds, mapped onto what the player can reach through the proxy.
@Suite struct MasterURIFormTests {
    static func relocation() throws -> MasterRelocation {
        let config = try ProxyConfig.decode(Array("""
            { "mounts": { "vod": { "origin": "http://origin.example/vod" }, "keys": { "origin": "https://keys.example" } },
              "embedded": { "allow_hosts": ["*.allowed.example"] } }
            """.utf8), environment: [:])
        return MasterRelocation(router: RequestRouter(config: config), mounts: config.mounts)
    }

    static var vod: Mount {
        get throws { try #require(try relocation().mounts.first { $0.name == "vod" }) }
    }

    static func relocate(_ text: String, requested: String, final: String? = nil, mount: Mount?) throws -> String {
        let bytes = try relocation().relocate(Array(text.utf8), requestedURL: requested, finalURL: final ?? requested, mount: mount)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func everyFormInAMasterOnAMountIsMappedOrLeftAsWritten() throws {
        let master = """
            #EXTM3U
            #EXT-X-SESSION-DATA:DATA-ID="com.example.x",URI="/vod/a/data.json"
            #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://key-1",KEYFORMAT="com.apple.streamingkeydelivery"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="/vod/a/audio/en.m3u8?t=1"
            #EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO="a"
            /vod/a/v0.m3u8?x=1
            #EXT-X-STREAM-INF:BANDWIDTH=2
            /elsewhere/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=3
            http://origin.example/vod/b/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=4
            HTTP://Origin.Example/vod/c/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=5
            https://keys.example/k/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=6
            https://foreign.example/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=7
            //foreign.example/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=8
            //origin.example/vod/d/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=9
            /vod/a/../e/./v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=10
            ../rel/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=11
            /vod/a%20b/v%2F1.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=12
            http://origin.example/vod/../x.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=13
            http://origin.example/vodka/x.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=14,URI="/vod/a/iframes.m3u8"

            """
        let out = try Self.relocate(master, requested: "http://origin.example/vod/a/master.m3u8", mount: Self.vod)
        #expect(out == """
            #EXTM3U
            #EXT-X-SESSION-DATA:DATA-ID="com.example.x",URI="/vod/a/data.json"
            #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://key-1",KEYFORMAT="com.apple.streamingkeydelivery"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="/vod/a/audio/en.m3u8?t=1"
            #EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO="a"
            /vod/a/v0.m3u8?x=1
            #EXT-X-STREAM-INF:BANDWIDTH=2
            http://origin.example/elsewhere/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=3
            /vod/b/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=4
            /vod/c/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=5
            /keys/k/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=6
            https://foreign.example/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=7
            http://foreign.example/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=8
            /vod/d/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=9
            /vod/e/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=10
            ../rel/v.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=11
            /vod/a%20b/v%2F1.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=12
            http://origin.example/vod/../x.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=13
            http://origin.example/vodka/x.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=14,URI="/vod/a/iframes.m3u8"

            """)
        // A `..` never reaches a proxy path (the proxy would refuse it): the absolute URI climbed out of
        // the mount, so it stays as written.
        #expect(!out.split(separator: "\n").contains { $0.hasPrefix("/") && $0.contains("..") })
    }

    @Test func aMasterWhoseURIsAlreadyReachTheProxyIsReturnedByteForByte() throws {
        let master = Array("#EXTM3U\r\n#EXT-X-STREAM-INF:BANDWIDTH=1\r\nv0.m3u8\r\n#EXT-X-STREAM-INF:BANDWIDTH=2\r\n/vod/v1.m3u8\r\n".utf8)
        let out = try Self.relocation().relocate(master, requestedURL: "http://origin.example/vod/m.m3u8", finalURL: "http://origin.example/vod/m.m3u8", mount: Self.vod)
        #expect(out == master)
    }

    @Test func aMasterRedirectedToAnotherHostResolvesAgainstTheFinalURL() throws {
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n/v0.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\nv1.m3u8?s=1\n#EXT-X-STREAM-INF:BANDWIDTH=3\n//origin.example/vod/v2.m3u8\n"
        let out = try Self.relocate(master, requested: "http://origin.example/vod/m.m3u8", final: "https://keys.example/k/m.m3u8", mount: Self.vod)
        // `//host` takes the final URL's scheme (https), so origin.example over https is no mount's origin.
        #expect(out == "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n/keys/v0.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\n/keys/k/v1.m3u8?s=1\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=3\nhttps://origin.example/vod/v2.m3u8\n")
    }

    @Test func aMasterReachedInEmbeddedFormKeepsItsOwnOriginInEmbeddedForm() throws {
        let master = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1
            /m/v0.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2
            https://cdn.allowed.example/z/v1.m3u8?q=1
            #EXT-X-STREAM-INF:BANDWIDTH=3
            https://other.allowed.example/v2.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=4
            http://origin.example/vod/v3.m3u8

            """
        let out = try Self.relocate(master, requested: "https://cdn.allowed.example/m/master.m3u8", mount: nil)
        #expect(out == """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1
            /https/cdn.allowed.example/m/v0.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2
            /https/cdn.allowed.example/z/v1.m3u8?q=1
            #EXT-X-STREAM-INF:BANDWIDTH=3
            https://other.allowed.example/v2.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=4
            /vod/v3.m3u8

            """)
    }

    @Test func aMediaPlaylistOnAMasterPathKeepsItsAbsoluteURIsButNotItsPathAbsoluteOnes() throws {
        let media = "#EXTM3U\n#EXTINF:4,\nhttp://origin.example/vod/s0.ts\n#EXTINF:4,\n/vod/s1.ts\n"
        let out = try Self.relocate(media, requested: "http://origin.example/vod/x/index.m3u8", mount: Self.vod)
        #expect(out == "#EXTM3U\n#EXTINF:4,\nhttp://origin.example/vod/s0.ts\n#EXTINF:4,\n/vod/s1.ts\n")
        let outside = try Self.relocate("#EXTM3U\n#EXTINF:4,\n/top/s1.ts\n", requested: "http://origin.example/vod/x/index.m3u8", mount: Self.vod)
        #expect(outside == "#EXTM3U\n#EXTINF:4,\nhttp://origin.example/top/s1.ts\n")
    }

    @Test func passThroughPlaylistsResolvePathAbsoluteAndSchemeRelativeSegments() throws {
        let relocation = try Self.relocation()
        let media = "#EXTM3U\n#EXT-X-MAP:URI=\"/vod/init.mp4\"\n#EXTINF:4,\n/vod/s0.m4s?t=1\n#EXTINF:4,\n//origin.example/vod/s1.m4s\n#EXTINF:4,\n/top/s2.m4s\n"
        let out = relocation.proxyingAbsoluteURIs(Array(media.utf8), mount: try Self.vod,
                                                  requestedURL: "http://origin.example/vod/index.m3u8", finalURL: "http://origin.example/vod/index.m3u8")
        #expect(String(decoding: out, as: UTF8.self)
            == "#EXTM3U\n#EXT-X-MAP:URI=\"/vod/init.mp4\"\n#EXTINF:4,\n/vod/s0.m4s?t=1\n#EXTINF:4,\n/vod/s1.m4s\n#EXTINF:4,\nhttp://origin.example/top/s2.m4s\n")
    }

    @Test func aRedirectedPassThroughPlaylistKeepsItsRelativeSegmentsOnTheRealDirectory() throws {
        let relocation = try Self.relocation()
        let out = relocation.proxyingAbsoluteURIs(Array("#EXTM3U\n#EXTINF:4,\ns0.ts\n".utf8), mount: try Self.vod,
                                                  requestedURL: "http://origin.example/vod/old/index.m3u8", finalURL: "http://origin.example/vod/new/index.m3u8")
        #expect(String(decoding: out, as: UTF8.self) == "#EXTM3U\n#EXTINF:4,\n/vod/new/s0.ts\n")
    }

    @Test func onADirectoryMountAPathAbsoluteURINamesTheMountRootAndNoFileURLLeaks() throws {
        let config = try ProxyConfig.decode(Array("""
            { "mounts": { "files": { "origin": "\(Fixtures.directory.path)" } } }
            """.utf8), environment: [:])
        let relocation = MasterRelocation(router: RequestRouter(config: config), mounts: config.mounts)
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n/vod-ts/v0/index.m3u8?x=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\n//host/v.m3u8\n"
        let fileURL = "file://" + Fixtures.directory.path + "/vod-ts/master.m3u8"
        let out = relocation.relocate(Array(master.utf8), requestedURL: fileURL, finalURL: fileURL, mount: config.mounts.first)
        #expect(String(decoding: out, as: UTF8.self)
            == "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n/files/vod-ts/v0/index.m3u8?x=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\n//host/v.m3u8\n")
    }

    @Test func theOfflineRewriteMapsURIFormsAsTheServerDoes() async throws {
        let config = try ProxyConfig.decode(Array("""
            { "mounts": { "vod": { "origin": "http://origin.example/vod" } },
              "subtitles": [ { "name": "s", "closed_captions": "none",
                               "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "en.vtt" } ] } ] }
            """.utf8), environment: [:])
        let master = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nhttp://origin.example/vod/v0.m3u8\n".utf8)
        let output = try await OfflineRewrite.rewrite(master, proxyURL: "http://127.0.0.1:8080/vod/m.m3u8", config: config)
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        #expect(lines.suffix(2) == [#"#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=NONE,SUBTITLES="subs""#, "/vod/v0.m3u8"])
    }

    @Test(arguments: [
        ("http://[::1", "http://[::1"), ("//", "//"), ("///", "///"), ("//[bad/x", "//[bad/x"), ("http://", "http://"),
        ("HTTPS:", "HTTPS:"), ("http://origin.example:99999/vod/x", "http://origin.example:99999/vod/x"),
        // Foundation escapes what a URL cannot hold; such a target lies outside the mount here.
        ("/%zz/x", "http://origin.example/%25zz/x"), ("/a b/c", "http://origin.example/a%20b/c"),
    ])
    func malformedURIsNeverTrapAndAreLeftAsWrittenOrEscaped(uri: String, expected: String) throws {
        let master = "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"x\",URI=\"\(uri)\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\n\(uri)\n"
        let out = try Self.relocate(master, requested: "http://origin.example/vod/m.m3u8", mount: Self.vod)
        #expect(out == "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"x\",URI=\"\(expected)\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\n\(expected)\n")
    }

    @Test(arguments: [
        ("v0/index.m3u8", URLReference.Form.relative), ("?q=1", .relative), ("a:b/c", .otherScheme), ("a b:c", .relative),
        ("/v0/index.m3u8", .pathAbsolute), ("//host/p", .schemeRelative), ("HTTPS://h/p", .absoluteHTTP),
        ("http://h", .absoluteHTTP), ("data:text/plain,x", .otherScheme), ("skd://k", .otherScheme), ("", .relative),
    ])
    func referenceFormsAreToldApart(reference: String, form: URLReference.Form) {
        #expect(URLReference.form(of: reference) == form)
    }
}
