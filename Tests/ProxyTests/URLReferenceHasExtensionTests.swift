@testable import Proxy
import Testing

/// `hasExtension` reads the extension from the bytes in place; it must name the same one
/// `pathExtension` builds as a string, whatever the URL's form.
@Suite struct URLReferenceHasExtensionTests {
    static let urls = [
        "/bucket/v0/seg000.ts", "/sample/master.M3U8", "/a.b/c", "/a/b.m3u8?x=1.vtt", "/a/b.vtt#frag.ts",
        "http://host.example/", "http://host.example", "http://host.m3u8", "http://host.example/x.M3u8",
        "https://cdn.example:8443/x/subs.en.VTT?sig=a.b", "file:///tmp/x/seg.ts", "/x/archive.tar.gz",
        "/x/no-extension", "/x/trailing.", "/x:y/seg.ts", "/a/b%2Em3u8", "1http://host/x.ts", "://x.ts", "", ".", "/",
    ]

    @Test(arguments: urls)
    func hasExtensionMatchesExactlyTheExtensionPathExtensionNames(url: String) {
        let named = URLReference.pathExtension(of: url)
        if !named.isEmpty {
            #expect(URLReference.hasExtension(url, in: ["zz", named]))
        }
        for other in ["ts", "m3u8", "vtt", "gz", "m3u", "example", "m3u8x"] where other != named {
            #expect(!URLReference.hasExtension(url, in: [other]), "\(other)")
        }
    }

    @Test func noCandidatesMatchNothing() {
        #expect(!URLReference.hasExtension("/a/b.ts", in: []))
    }
}
