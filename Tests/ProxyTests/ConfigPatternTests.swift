@testable import Proxy
import TestSupport
import Testing

@Suite struct ConfigPatternTests {
    @Test(arguments: [
        // Relative patterns match the end of the path after a '/'.
        ("*.m3u8", "/a/b/x.m3u8", true),
        ("*.m3u8", "/x.m3u8", true),
        ("*.m3u8", "/a/x.m3u8.bak", false),
        ("*.m3u8", "/a/x.M3U8", false),
        ("*(format=m3u8-aapl)", "/https/x.streaming.media.azure.net/abc/video.ism/manifest(format=m3u8-aapl)", true),
        ("*(format=m3u8-aapl)", "/https/x.streaming.media.azure.net/abc/video.ism/manifest(format=mpd-time-csf)", false),
        ("master.m3u8", "/vod/master.m3u8", true),
        ("master.m3u8", "/vod/my-master.m3u8", false),
        ("video.ism/manifest(*)", "/a/video.ism/manifest(format=m3u8-aapl)", true),
        ("?.m3u8", "/a/b.m3u8", true),
        ("?.m3u8", "/a/bb.m3u8", false),
        // Absolute patterns match the whole path; '*' crosses '/'.
        ("/sample/master.m3u8", "/sample/master.m3u8", true),
        ("/sample/master.m3u8", "/other/sample/master.m3u8", false),
        ("/sample/*", "/sample/a/b/c.m3u8", true),
        ("/sample/*.m3u8", "/sample/a/b/c.m3u8", true),
        ("/sample/*/master.m3u8", "/sample/master.m3u8", false),
        ("/*", "/", true),
        ("/a?c", "/abc", true),
        ("/a?c", "/ac", false),
        ("/é?", "/éü", true),
        ("/a**b", "/ab", true),
    ])
    func pathPatternsMatchLikeGlobs(pattern: String, path: String, expected: Bool) {
        #expect(PathPattern(pattern).matches(path) == expected)
    }

    @Test func matchingAgreesWithThePlainGlobOverScalarsForRandomPatternsAndPaths() {
        // Pieces that exercise stars, `?`, the literal tail, a multi-byte character and the `*/` anchoring.
        let pieces = ["/", "a", "b", ".m3u8", "*", "?", "é", "master", "x"]
        var generator = SeededGenerator()
        func random(_ count: Int) -> String {
            (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
        }
        for _ in 0..<3000 {
            let pattern = (Bool.random(using: &generator) ? "/" : "") + random(Int.random(in: 0...5, using: &generator))
            let path = "/" + random(Int.random(in: 0...6, using: &generator)).replacingOccurrences(of: "*", with: "s")
                .replacingOccurrences(of: "?", with: "q")
            let whole = pattern.hasPrefix("/") ? pattern : "*/" + pattern
            let expected = PathPattern.globMatches(Array(whole.unicodeScalars), Array(path.unicodeScalars), star: "*", any: "?")
            #expect(PathPattern(pattern).matches(path) == expected, "\(pattern) against \(path)")
        }
    }

    @Test func aPathologicalPatternFinishes() {
        // Backtracking matchers take exponential time here; the two-pointer match is at most pattern × path steps.
        let pattern = PathPattern("/" + String(repeating: "*a", count: 40) + "b")
        let path = "/" + String(repeating: "a", count: 5_000)
        #expect(!pattern.matches(path))
        #expect(pattern.matches(path + "b"))
    }

    @Test func aSetAppliesWhenAnyOfItsMastersMatches() {
        let set = SubtitleSet(name: "s", tracks: [])
        #expect(set.appliesTo(path: "/vod/master.m3u8"))
        #expect(set.appliesTo(path: "/https/h/video.ism/manifest(format=m3u8-aapl)"))
        #expect(!set.appliesTo(path: "/vod/seg1.ts"))
    }

    @Test(arguments: [
        ("example.com", "example.com", true),
        ("example.com", "EXAMPLE.com", true),
        ("Example.COM", "example.com", true),
        ("example.com", "sub.example.com", false),
        ("example.com", "example.com.evil.net", false),
        ("*.example.com", "sub.example.com", true),
        ("*.example.com", "a.b.example.com", true),
        ("*.Example.com", "SUB.example.COM", true),
        ("*.example.com", "example.com", false),
        ("*.example.com", "evilexample.com", false),
        ("*.example.com", ".example.com", false),
        ("*.example.com", "a..example.com", false),
        ("*.example.com", "sub.example.com:443", false),
        ("127.0.0.1", "127.0.0.1", true),
        ("[::1]", "[::1]", true),
    ])
    func hostPatternsMatchExactlyOrBySuffix(pattern: String, host: String, expected: Bool) throws {
        let parsed = try #require(HostPattern(pattern))
        #expect(parsed.matches(host) == expected)
    }

    @Test(arguments: ["", "*", "*.", "*example.com", "a.*.com", "example.com:443", "exa mple.com", "a..b", "http://example.com", "[::g]"])
    func malformedHostPatternsDoNotParse(pattern: String) {
        #expect(HostPattern(pattern) == nil)
    }

    @Test func theEmbeddedFormIsOnlyForListedHosts() throws {
        let embedded = ProxyConfig.EmbeddedOrigins(allowHosts: [try #require(HostPattern("*.azure.net"))])
        #expect(embedded.allows("x.azure.net"))
        #expect(!embedded.allows("azure.net.example.org"))
    }

    @Test(arguments: [
        ("en.vtt", TrackConfig.SourceFormat.webvtt),
        ("https://h/a/EN.WebVTT?sig=1", .webvtt),
        ("subs/es.srt#frag", .srt),
        ("movie.mp4", .mp4),
        ("movie.m4v", .mp4),
        ("https://h/a/en.ttml?sig=1", .ttml),
        ("netflix.DFXP", .ttml),
        ("subs/de.xml", .ttml),
    ])
    func sourceFormatsAreToldByExtension(source: String, format: TrackConfig.SourceFormat) {
        #expect(TrackConfig.SourceFormat(inferringFrom: source) == format)
    }

    @Test(arguments: ["subtitles", "https://h/subs?format=vtt", "a.vtt/next", "x.ttml/next", "x.sami"])
    func unknownExtensionsTellNoFormat(source: String) {
        #expect(TrackConfig.SourceFormat(inferringFrom: source) == nil)
    }
}

/// Patterns compare as their scalars: what they match is decided scalar by scalar.
@Suite struct PathPatternEqualityTests {
    @Test func canonicallyEquivalentSpellingsAreDifferentPatterns() {
        let composed = PathPattern("/caf\u{E9}/*.m3u8"), decomposed = PathPattern("/cafe\u{301}/*.m3u8")
        #expect(composed.matches("/caf\u{E9}/a.m3u8") && !decomposed.matches("/caf\u{E9}/a.m3u8"))
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
    }

    @Test func patternsWrittenAlikeAreEqualAndHashAlike() {
        let patterns = ["/vod/*/master.m3u8", "master.m3u8", "*/master.m3u8", "/vod/{asset}/master.m3u8", "", "/a?b"]
        for a in patterns {
            for b in patterns {
                #expect((PathPattern(a) == PathPattern(b)) == (a == b), "\(a) / \(b)")
            }
        }
        #expect(Set(patterns.map(PathPattern.init) + patterns.map(PathPattern.init)).count == patterns.count)
    }
}
