import Testing
@testable import Proxy

/// A master answered at a signed URL keeps its relative URIs reaching the master's own routes: they
/// become path-absolute under its proxy path, and nothing else in it changes.
@Suite struct MasterAnchoringTests {
    static func anchored(_ text: String, at target: String) -> String {
        String(decoding: MasterRelocation.anchoringRelativeURIs(Array(text.utf8), at: target), as: UTF8.self)
    }

    @Test func relativeVariantAndRenditionURIsBecomePathAbsoluteUnderTheMastersPath() {
        let master = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="audio/en.m3u8"
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=10000,URI="../iframes.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1000,AUDIO="a"
            v0/index.m3u8?q=1
            #EXT-X-STREAM-INF:BANDWIDTH=2000
            /sample/v1/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=3000
            https://cdn.example.com/v2/index.m3u8

            """
        let result = Self.anchored(master, at: "/sample/vod/master.m3u8?token=abc")
        #expect(result == """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="/sample/vod/audio/en.m3u8"
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=10000,URI="/sample/iframes.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1000,AUDIO="a"
            /sample/vod/v0/index.m3u8?q=1
            #EXT-X-STREAM-INF:BANDWIDTH=2000
            /sample/v1/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=3000
            https://cdn.example.com/v2/index.m3u8

            """)
    }

    @Test func theEmbeddedFormKeepsItsHostSegment() {
        let result = Self.anchored("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv0/index.m3u8\n", at: "/https/cdn.example.com/films/42/master.m3u8")
        #expect(result == "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n/https/cdn.example.com/films/42/v0/index.m3u8\n")
    }

    @Test func aMasterWithoutRelativeURIsAndABodyThatIsNoPlaylistAreUnchanged() {
        let absolute = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n/sample/v0/index.m3u8\n"
        #expect(Self.anchored(absolute, at: "/sample/master.m3u8") == absolute)
        #expect(Self.anchored("not a playlist v0/index.m3u8", at: "/sample/master.m3u8") == "not a playlist v0/index.m3u8")
    }
}
