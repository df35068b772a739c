import Testing
import TestSupport
@testable import Proxy

/// `URLReference.pathExtension` finds the extension in one pass over the bytes; it must name the one
/// the rule names when each step is taken on its own, with String operations: cut the query and
/// fragment, skip `scheme://authority`, take the last path segment, then what follows its last dot.
@Suite struct PathExtensionReferenceTests {
    static func reference(_ url: String) -> String {
        let beforeQuery = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let text = String(beforeQuery.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
        var path = Substring(text)
        if let colon = text.firstIndex(of: ":"), colon > text.startIndex,
           text[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
           text[..<colon].first?.isLetter == true,
           text[colon...].hasPrefix("://") {
            let authorityStart = text.index(colon, offsetBy: 3)
            path = text[authorityStart...].firstIndex(of: "/").map { text[$0...] } ?? ""
        }
        let name = path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path
        guard let dot = name.lastIndex(of: ".") else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    @Test(arguments: [
        "/work/main/Examples/sample-vod/v0/seg000.ts", "/a/b.m3u8?x=1.vtt", "/a/b.vtt#frag.ts", "http://host.example/",
        "http://host.m3u8", "https://cdn.example:8443/x/subs.en.VTT?sig=a.b", "file:///tmp/x/seg.ts", "/x:y/seg.ts",
        "1http://host/x.ts", "://x.ts", "a:/x.ts", "a://", "a:b.ts", "/x/trailing.", ".", "/", "", "/.ts", "x.y/z",
    ])
    func namedPathsGetTheReferenceExtension(url: String) {
        #expect(URLReference.pathExtension(of: url) == Self.reference(url), "\(url)")
    }

    @Test func seededPathsGetTheReferenceExtension() {
        var generator = SeededGenerator()
        let pieces = ["/", "//", ".", ":", "://", "?", "#", "ts", "M3U8", "a", "h1", "+", "-", "é", "x.y"]
        for _ in 0..<5_000 {
            let url = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
            #expect(URLReference.pathExtension(of: url) == Self.reference(url), "\(url) (seed \(generator.seed))")
        }
    }

    /// A directory-mount file's extension is what follows the last dot of its path's last segment, as
    /// the kernel names it: `?`, `#` and `%` are bytes of a name there, not a query, a fragment or an escape.
    static func fileExtension(_ path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    /// A directory-mount file looks at its extension once for both its type and whether it is a
    /// playlist to relocate.
    @Test(arguments: [
        "/v/index.m3u8", "/v/INDEX.M3U", "/v/seg.ts", "/v/x.m3u8x", "/v.m3u8/x", "/v/x", "/s/en.vtt", "/v/a%2Em3u8",
        "/srv/Season #1/ep1.m3u8", "/srv/what?/seg.ts", "/srv/a.ts?x", "/srv/a.m3u8#f", "/srv/100%/v.vtt", "/srv/.m3u8", "/srv/x.",
    ])
    func aFilesTypeAndPlaylistFlagComeFromItsNamesLastDot(path: String) {
        let file = MediaType.forFile(path)
        let ext = Self.fileExtension(path)
        let plain = !ext.isEmpty && !ext.contains(where: { "?#%".contains($0) })
        #expect(file.type == (plain ? MediaTypeTests.reference("/f." + ext) : "application/octet-stream"), "\(path)")
        #expect(file.isPlaylist == (ext == "m3u8" || ext == "m3u"), "\(path)")
        // The playlist extensions are the pass-through's own.
        #expect(file.isPlaylist == PassThroughResponder.isPlaylistPath("/f." + ext) || !plain, "\(path)")
        // The shared field lists a file response starts from say the same, in the order a response sends them.
        let fields = MediaType.fileFields(path)
        #expect(fields.isPlaylist == file.isPlaylist, "\(path)")
        #expect(fields.fields.fields.map { "\($0.name): \($0.value)" }
                == ["Content-Type: \(file.type)", "Cache-Control: max-age=60", "Accept-Ranges: bytes"], "\(path)")
    }

    @Test func seededFilePathsGetTheirNamesExtension() {
        var generator = SeededGenerator()
        let pieces = ["/", ".", "?", "#", "%2E", "ts", "M3U8", "m3u", "vtt", "a", "é", " "]
        for _ in 0..<5_000 {
            let path = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
            let ext = Self.fileExtension(path)
            let plain = !ext.isEmpty && !ext.contains(where: { "?#%".contains($0) })
            #expect(MediaType.forFile(path).type == (plain ? MediaTypeTests.reference("/f." + ext) : "application/octet-stream"),
                    "\(path) (seed \(generator.seed))")
        }
    }
}
