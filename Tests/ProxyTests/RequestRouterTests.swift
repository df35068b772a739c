import Testing
import HTTPWire
@testable import Proxy

/// Routing of raw request paths: the fixed routes, mounts matched by their raw or escaped name, and the
/// route names metrics count by.
@Suite struct RequestRouterTests {
    static let router: RequestRouter = {
        let json = #"{"mounts": {"sample": {"origin": "http://127.0.0.1:9/vod/"}, "s2": {"origin": "http://127.0.0.1:9/"}}, "embedded": {"allow_hosts": ["cdn.example"]}}"#
        // A config that fails to decode gives a router with no mounts, and the mount tests below fail.
        return RequestRouter(config: (try? ConfigTestSupport.decode(json)) ?? ProxyConfig())
    }()

    @Test func fixedRoutesMatchOnlyAsTheWholePath() throws {
        guard case .health = try Self.router.route(rawPath: "/healthz", query: nil) else { Issue.record("healthz"); return }
        guard case .ready = try Self.router.route(rawPath: "/readyz", query: nil) else { Issue.record("readyz"); return }
        guard case .metrics = try Self.router.route(rawPath: "/metrics", query: nil) else { Issue.record("metrics"); return }
        // With a path after them they are not the fixed routes, and no mount has those names.
        #expect(throws: ProxyError.self) { try Self.router.route(rawPath: "/healthz/x", query: nil) }
        #expect(throws: ProxyError.self) { try Self.router.route(rawPath: "/healthzz", query: nil) }
    }

    @Test func aMountIsMatchedByItsExactName() throws {
        guard case .origin(let target) = try Self.router.route(rawPath: "/sample/v0/seg000.ts", query: "t=1") else {
            Issue.record("not an origin route")
            return
        }
        #expect(target.mount?.name == "sample")
        #expect(target.url == "http://127.0.0.1:9/vod/v0/seg000.ts?t=1")
        #expect(target.proxyPath == "/sample/v0/seg000.ts")
        #expect(target.proxyTarget == "/sample/v0/seg000.ts?t=1")
        guard case .origin(let other) = try Self.router.route(rawPath: "/s2/a.m3u8", query: nil) else {
            Issue.record("not an origin route")
            return
        }
        #expect(other.mount?.name == "s2")
        #expect(other.url == "http://127.0.0.1:9/a.m3u8")
        // A prefix or an extension of a mount's name is not that mount.
        #expect(throws: ProxyError.self) { try Self.router.route(rawPath: "/sampl/a.ts", query: nil) }
        #expect(throws: ProxyError.self) { try Self.router.route(rawPath: "/samples/a.ts", query: nil) }
        #expect(throws: ProxyError.self) { try Self.router.route(rawPath: "/Sample/a.ts", query: nil) }
    }

    @Test func originURLsAreJoinedExactly() {
        func joined(_ base: String, _ rest: Substring, query: String?) -> (string: String, field: String?) {
            let location = OriginLocation.joined(base: base, rest: rest, query: query)
            var headers = HTTPHeaders()
            location.add(as: .location, to: &headers)
            return (location.string, headers[.location])
        }
        let cases: [(String, Substring, String?, String)] = [
            ("http://h/vod", "a/b.ts", nil, "http://h/vod/a/b.ts"),
            ("http://h/vod", "a/b.ts", "", "http://h/vod/a/b.ts?"),
            ("http://h", "", "x=1&y=%20", "http://h/?x=1&y=%20"),
            // Longer than any stack loan, and with a non-ASCII host.
            ("https://ünï.example/p", String(repeating: "seg/", count: 300).dropLast(), "q",
             "https://ünï.example/p/" + String(repeating: "seg/", count: 300).dropLast() + "?q"),
        ]
        for (base, rest, query, expected) in cases {
            let made = joined(base, rest, query: query)
            #expect(made.string == expected)
            #expect(made.field.map { Array($0.utf8) } == Array(expected.utf8))
        }
        let whole = OriginLocation.whole("file:///srv/a b.ts")
        #expect(whole.string == "file:///srv/a b.ts")
        var headers = HTTPHeaders()
        whole.add(as: .location, to: &headers)
        #expect(headers[.location].map { Array($0.utf8) } == Array("file:///srv/a b.ts".utf8))
    }

    @Test func dotDotSegmentsAreRefusedWhetherRawOrEscapedAndDotsInNamesAreNot() throws {
        // The router skips the segment check when the path has neither "%" nor ".."; every path that
        // has either still gets it.
        for path in ["/sample/../x.ts", "/sample/a/../../x.ts", "/sample/..", "/sample/%2e%2e/x.ts", "/sample/.%2E/x.ts", "/sample/..%2fx.ts"] {
            #expect(throws: ProxyError.self, "\(path)") { try Self.router.route(rawPath: path, query: nil) }
        }
        for path in ["/sample/a..b.ts", "/sample/..a/b.ts", "/sample/a../b.ts", "/sample/v0/seg.000.ts"] {
            guard case .origin(let target) = try Self.router.route(rawPath: path, query: nil) else {
                Issue.record("\(path) is not an origin route")
                continue
            }
            #expect(target.url == "http://127.0.0.1:9/vod" + path.dropFirst("/sample".count))
        }
    }

    @Test func anEscapedMountNameStillNamesTheMountAndThePathIsDecoded() throws {
        guard case .origin(let target) = try Self.router.route(rawPath: "/%73ample/a%20b.ts", query: nil) else {
            Issue.record("not an origin route")
            return
        }
        #expect(target.mount?.name == "sample")
        #expect(target.proxyPath == "/sample/a b.ts")
        #expect(target.url == "http://127.0.0.1:9/vod/a%20b.ts")
    }

    @Test func embeddedAndSubtitlePrefixesAreRecognized() throws {
        guard case .origin(let target) = try Self.router.route(rawPath: "/https/cdn.example/x/m.m3u8", query: nil) else {
            Issue.record("not an origin route")
            return
        }
        #expect(target.mount == nil)
        #expect(target.url == "https://cdn.example/x/m.m3u8")
        #expect(throws: ProxyError.notFound("unknown synthesized resource")) {
            try Self.router.route(rawPath: "/_hls-proxy/v1/nothing", query: nil)
        }
        #expect(throws: ProxyError.self) { try Self.router.route(rawPath: "/", query: nil) }
        #expect(throws: ProxyError.self) { try Self.router.route(rawPath: "", query: nil) }
    }

    @Test func routeIndexesFollowTheNamesInSortedOrder() {
        // Metrics write their counters in `allCases` order, which must be sorted by name.
        let names = ProxyRoute.allCases.map(\.name)
        #expect(names == names.sorted())
        #expect(ProxyRoute.allCases.map(\.index) == Array(0..<ProxyRoute.allCases.count))
    }

    @Test func routeNamesQuotedForAccessLinesAreTheirNamesInQuotes() {
        for route in ProxyRoute.allCases {
            #expect(String(decoding: route.quotedName, as: UTF8.self) == "\"\(route.name)\"")
        }
    }
}
