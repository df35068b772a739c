@testable import Proxy
import Testing

@Suite struct OriginClientURLResolutionTests {
    // RFC 3986 §5.4.1 and §5.4.2: every example with its expected result, as printed in the RFC
    // (fragments are dropped by OriginURL, so the "#s" cases expect the RFC result without it).
    static let examples: [(String, String)] = [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q"), ("g#s", "http://a/b/c/g"), ("g?y#s", "http://a/b/c/g?y"), (";x", "http://a/b/c/;x"),
        ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y"), ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"), ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"),
        ("../../", "http://a/"), ("../../g", "http://a/g"),
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g?y/../x", "http://a/b/c/g?y/../x"), ("g#s/./x", "http://a/b/c/g"), ("g#s/../x", "http://a/b/c/g"), ("http:g", "http:g"),
    ]

    @Test func referencesResolveAsRFC3986Section5Point4Says() {
        let base = OriginURL(parsing: "http://a/b/c/d;p?q")
        for (reference, expected) in Self.examples {
            #expect(base.resolving(OriginURL(parsing: reference)).string == expected, "reference \(reference)")
        }
    }

    /// RFC 3986's delimiters are ASCII bytes: one followed by a combining mark still delimits (a
    /// Character scan would read "?" and U+0301 as one character and miss it).
    @Test func delimitersFollowedByCombiningMarksStillDelimit() {
        let query = OriginURL(parsing: "http://h/a?\u{301}x=1#\u{301}f")
        #expect(query.path == "/a")
        #expect(query.query == "\u{301}x=1")
        let authority = OriginURL(parsing: "http://h\u{301}/\u{301}p")
        #expect(authority.authority == "h\u{301}")
        #expect(authority.path == "/\u{301}p")
        let fragment = OriginURL(parsing: "HTTP://h/é.vtt#\u{301}")
        #expect(fragment.scheme == "http")
        #expect(fragment.path == "/é.vtt")
        #expect(fragment.query == nil)
        let relative = OriginURL(parsing: "a:b/c:d?e")
        #expect(relative.scheme == "a")
        #expect(relative.path == "b/c:d")
        #expect(OriginURL(parsing: "./a:b").scheme == nil)
        #expect(OriginURL(parsing: "1a:b").scheme == nil)
        #expect(OriginURL(parsing: "").path == "")
    }

    @Test func authoritiesSplitIntoHostAndPort() {
        #expect(OriginURL(parsing: "http://example.com/a").endpoint(defaultPort: 80) == .init(host: "example.com", port: 80))
        #expect(OriginURL(parsing: "http://example.com:8080/a").endpoint(defaultPort: 80) == .init(host: "example.com", port: 8080))
        #expect(OriginURL(parsing: "http://[::1]:9/a").endpoint(defaultPort: 80) == .init(host: "::1", port: 9))
        #expect(OriginURL(parsing: "https://[2001:db8::1]/a").endpoint(defaultPort: 443) == .init(host: "2001:db8::1", port: 443))
        #expect(OriginURL(parsing: "http://example.com:/a").endpoint(defaultPort: 80) == .init(host: "example.com", port: 80))
        #expect(OriginURL(parsing: "http://user:pw@example.com/a").endpoint(defaultPort: 80) == nil)
        #expect(OriginURL(parsing: "http://example.com:99999/a").endpoint(defaultPort: 80) == nil)
        #expect(OriginURL(parsing: "http://example.com:+80/a").endpoint(defaultPort: 80) == nil)
        #expect(OriginURL(parsing: "http:///a").endpoint(defaultPort: 80) == nil)
    }

    @Test func requestTargetsKeepTheQueryAndEncodeOnlyUnsafeBytes() {
        #expect(OriginURL(parsing: "http://h?x=1").requestTarget == "/?x=1")
        #expect(OriginURL(parsing: "http://h/a%2Fb/c.m3u8?sig=a%3D&x=~").requestTarget == "/a%2Fb/c.m3u8?sig=a%3D&x=~")
        #expect(OriginURL(parsing: "http://h/a b/é.vtt").requestTarget == "/a%20b/%C3%A9.vtt")
    }
}
