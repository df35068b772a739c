@testable import Proxy
import Testing

/// The extension the proxy classifies resources by, from a proxy path or an origin URL.
@Suite struct PathExtensionTests {
    @Test(arguments: [
        ("/bucket/v0/seg000.ts", "ts"),
        ("/sample/master.M3U8", "m3u8"),
        ("/a.b/c", ""),
        ("/a/b.m3u8?x=1.vtt", "m3u8"),
        ("/a/b.vtt#frag.ts", "vtt"),
        ("http://host.example/", ""),
        ("http://host.example", ""),
        ("https://cdn.example:8443/x/subs.en.VTT?sig=a.b", "vtt"),
        ("file:///tmp/x/seg.ts", "ts"),
        ("/x/archive.tar.gz", "gz"),
        ("/x/no-extension", ""),
        ("/x/trailing.", ""),
        ("/x:y/seg.ts", "ts"),
        ("/a/b%2Em3u8", "m3u8"),
        ("", ""),
    ])
    func extensionIsTheLastDotOfTheLastPathSegment(url: String, expected: String) {
        #expect(URLReference.pathExtension(of: url) == expected)
    }

    @Test(arguments: [
        ("/a/b.m3u8", true), ("/a/b.M3U8", true), ("/a/b.m3u", true), ("/a/b.m3u8x", false), ("/a/b.ts", false),
        ("/a.m3u8/b", false), ("/a/b.m3u8?x=1", true), ("/a/b%2Em3u8", true), ("/a/bm3u8", false), ("", false),
    ])
    func playlistPathsAreToldByExtension(path: String, expected: Bool) {
        #expect(PassThroughResponder.isPlaylistPath(path) == expected)
    }
}
