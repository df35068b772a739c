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
}
