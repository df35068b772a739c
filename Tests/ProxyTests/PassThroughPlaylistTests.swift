@testable import Proxy
import Testing

/// Variant playlists in `proxy` mode: absolute origin URIs come back through the proxy, nothing else changes.
@Suite struct PassThroughPlaylistTests {
    static let playlistURL = "http://cdn.example/base/v0/index.m3u8"

    static func relocation() throws -> (MasterRelocation, ProxyConfig) {
        let config = try ProxyConfig.decode(Array("""
            { "mounts": { "cdn": { "origin": "http://cdn.example/base", "segments": "proxy" },
                          "keys": { "origin": "https://keys.example" } },
              "embedded": { "allow_hosts": ["*.allowed.example"] } }
            """.utf8), environment: [:])
        return (MasterRelocation(router: RequestRouter(config: config), mounts: config.mounts), config)
    }

    @Test func everyURIBearingTagAndSegmentLineIsPointedAtTheProxy() throws {
        let (relocation, config) = try Self.relocation()
        // Lines mirror RFC 8216 §8.3/§8.5 examples and the LL-HLS tags (RFC 8216bis §4.4.4.9, §4.4.5.3, §4.4.5.4).
        let variant = """
            #EXTM3U\r
            #EXT-X-VERSION:9\r
            #EXT-X-TARGETDURATION:4\r
            #EXT-X-MAP:URI="http://cdn.example/base/v0/init.mp4"\r
            #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example/k1?t=a",IV=0x0123\r
            #EXTINF:4.0,\r
            http://cdn.example/base/v0/seg0.m4s\r
            #EXT-X-PART:DURATION=1.0,URI="http://cdn.example/base/v0/seg1.0.m4s",INDEPENDENT=YES\r
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="http://cdn.example/base/v0/seg1.1.m4s"\r
            #EXT-X-RENDITION-REPORT:URI="http://cdn.example/base/v1/index.m3u8",LAST-MSN=1\r
            #EXTINF:4.0,\r
            https://cdn.allowed.example/x/seg2.m4s\r
            #EXTINF:4.0,\r
            https://unknown.example/seg3.m4s\r
            #EXTINF:4.0,\r
            relative/seg4.m4s\r

            """
        let out = String(decoding: relocation.proxyingAbsoluteURIs(Array(variant.utf8), mount: config.mounts.first, requestedURL: Self.playlistURL, finalURL: Self.playlistURL), as: UTF8.self)
        let expected = """
            #EXTM3U\r
            #EXT-X-VERSION:9\r
            #EXT-X-TARGETDURATION:4\r
            #EXT-X-MAP:URI="/cdn/v0/init.mp4"\r
            #EXT-X-KEY:METHOD=AES-128,URI="/keys/k1?t=a",IV=0x0123\r
            #EXTINF:4.0,\r
            /cdn/v0/seg0.m4s\r
            #EXT-X-PART:DURATION=1.0,URI="/cdn/v0/seg1.0.m4s",INDEPENDENT=YES\r
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="/cdn/v0/seg1.1.m4s"\r
            #EXT-X-RENDITION-REPORT:URI="/cdn/v1/index.m3u8",LAST-MSN=1\r
            #EXTINF:4.0,\r
            /https/cdn.allowed.example/x/seg2.m4s\r
            #EXTINF:4.0,\r
            https://unknown.example/seg3.m4s\r
            #EXTINF:4.0,\r
            relative/seg4.m4s\r

            """
        #expect(out == expected)
    }

    @Test func aPlaylistWithNothingToChangeIsReturnedByteForByte() throws {
        let (relocation, _) = try Self.relocation()
        let bytes = Array("\u{FEFF}#EXTM3U\n#EXTINF:4,\nseg0.ts\n# comment\n#EXT-X-ENDLIST\n".utf8)
        #expect(relocation.proxyingAbsoluteURIs(bytes, mount: nil, requestedURL: Self.playlistURL, finalURL: Self.playlistURL) == bytes)
        let notAPlaylist = Array("http://cdn.example/base/x.ts\n".utf8)
        #expect(relocation.proxyingAbsoluteURIs(notAPlaylist, mount: nil, requestedURL: Self.playlistURL, finalURL: Self.playlistURL) == notAPlaylist)
    }

    @Test func theRequestingMountIsPreferredWhenTwoMountsCoverAURL() throws {
        let config = try ProxyConfig.decode(Array("""
            { "mounts": { "a": { "origin": "http://cdn.example" }, "b": { "origin": "http://cdn.example", "segments": "proxy" } } }
            """.utf8), environment: [:])
        let relocation = MasterRelocation(router: RequestRouter(config: config), mounts: config.mounts)
        let mountB = try #require(config.mounts.first { $0.name == "b" })
        let out = relocation.proxyingAbsoluteURIs(Array("#EXTM3U\n#EXTINF:4,\nhttp://cdn.example/s.ts\n".utf8), mount: mountB, requestedURL: Self.playlistURL, finalURL: Self.playlistURL)
        #expect(String(decoding: out, as: UTF8.self) == "#EXTM3U\n#EXTINF:4,\n/b/s.ts\n")
    }
}
