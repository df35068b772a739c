import HTTPClient
import HTTPServer
@testable import Proxy
import Synchronization
import TestSupport
import Testing

/// SSRF vetting judges the host the connection uses, read by the connection's own parser: for URLs
/// another parser reads differently (userinfo, backslashes, `%`, zone ids, trailing dots), the name
/// vetted is the name connected to, and a URL the connection cannot name a host for is refused.
@Suite struct HardeningConnectionHostTests {
    /// Every name the address check asked for; all resolve to the loopback test origin.
    final class RecordingResolver: Sendable {
        let asked = Mutex<[String]>([])
        var resolver: HostResolver {
            HostResolver { name throws(HTTPClientError) in
                self.asked.withLock { $0.append(name) }
                return [IPAddress("127.0.0.1")].compactMap { $0 }
            }
        }
    }

    static func fetcher(allowPrivate: Bool, resolver: RecordingResolver) throws -> OriginFetcher {
        let config = try ProxyConfig.decode(Array(#"{ "embedded": { "allow_private_networks": \#(allowPrivate) } }"#.utf8), environment: [:])
        let handler = ProxyHandler(
            config: config, origin: OriginClient(configuration: .init()), logger: .silent, metrics: ProxyMetrics(),
            resolver: resolver.resolver, diskCache: nil, serverState: { (0, true) })
        return handler.masters.fetcher
    }

    static func fetch(_ fetcher: OriginFetcher, _ url: String) async throws -> Int {
        let request = HTTPRequest(method: .get, target: "/", path: "/", rawPath: "/", query: nil)
        return try await fetcher.fetch(url, kind: "test", maxBytes: 1000, mount: nil, request: request).0.status
    }

    static func origin() throws -> TestOrigin {
        try TestOrigin(routes: ["/a": .raw(TestOrigin.response(status: 200, body: Array("ok".utf8)))])
    }

    /// What one fetch did: the names the address check asked for, the requests that reached the
    /// origin, and the status (nil: the fetch was refused).
    struct Attempt {
        var asked: [String]
        var reached: [TestOrigin.RecordedRequest]
        var status: Int?
    }

    /// Fetches `url` with `PORT` replaced by a fresh test origin's port.
    static func attempt(_ url: String, allowPrivate: Bool) async throws -> Attempt {
        let origin = try Self.origin()
        defer { origin.stop() }
        let resolver = RecordingResolver()
        let fetcher = try Self.fetcher(allowPrivate: allowPrivate, resolver: resolver)
        let status = try? await Self.fetch(fetcher, url.replacingOccurrences(of: "PORT", with: String(origin.port)))
        return Attempt(asked: resolver.asked.withLock { $0 }, reached: origin.requests(), status: status)
    }

    /// The host of a Host field value, without port and brackets, lowercased.
    static func hostPart(_ field: String) -> String {
        var host = Substring(field)
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        return host.lowercased()
    }

    @Test(arguments: [
        // Foundation reads the host after `@` (or after the backslash); the connection refuses userinfo.
        "http://user@127.0.0.1:PORT/a",
        "http://user:secret@127.0.0.1:PORT/a",
        "http://allowed.example\\@127.0.0.1:PORT/a",
        "http://allowed.example%40127.0.0.1@127.0.0.1:PORT/a",
        // No authority the connection can use.
        "http:///a",
        "http://:PORT/a",
        "http://[::1:PORT/a",
        "http://127.0.0.1:0/a",
        "ftp://127.0.0.1:PORT/a",
    ])
    func aURLWithoutAHostTheConnectionWouldUseIsRefusedAndNothingIsResolvedOrReached(url: String) async throws {
        let attempt = try await Self.attempt(url, allowPrivate: true)
        #expect(attempt.status == nil)
        #expect(attempt.asked.isEmpty)
        #expect(attempt.reached.isEmpty)
    }

    @Test(arguments: [
        ("http://127.0.0.1:PORT/a", "127.0.0.1"),
        ("http://LocalHost:PORT/a", "localhost"),
        // A trailing dot is part of the name the connection resolves.
        ("http://localhost.:PORT/a", "localhost."),
        // A backslash or `%` stays in the host for the connection, so it is that name that is vetted.
        ("http://localhost\\.allowed.example:PORT/a", "localhost\\.allowed.example"),
        ("http://local%68ost:PORT/a", "local%68ost"),
        // An IPv6 literal with a zone id, brackets removed as the connection removes them.
        ("http://[fe80::1%25lo]:PORT/a", "fe80::1%25lo"),
    ] as [(String, String)])
    func theNameVettedIsTheNameTheConnectionUses(url: String, vetted: String) async throws {
        let attempt = try await Self.attempt(url, allowPrivate: true)
        #expect(attempt.asked == [vetted])
        #expect(attempt.status == 200)
        #expect(attempt.reached.count == 1)
        // The request that reached the origin named the host that was vetted.
        #expect(attempt.reached.allSatisfy { $0.headers["Host"].map(Self.hostPart) == vetted })
    }

    @Test(arguments: ["http://localhost.:PORT/a", "http://[fe80::1%25lo]:PORT/a", "http://LOCALHOST:PORT/a"])
    func aNameTheConnectionUsesIsRefusedWhenItResolvesToTheLocalNetwork(url: String) async throws {
        let attempt = try await Self.attempt(url, allowPrivate: false)
        #expect(attempt.status == nil)
        #expect(attempt.asked.count == 1)
        #expect(attempt.reached.isEmpty)
    }

    @Test func theConnectionHostIsTheEndpointTheClientRequestIsMadeFor() throws {
        for (url, host) in [
            ("http://Example.COM:8080/x", "example.com"), ("https://[::1]/x", "::1"), ("http://a.example./x", "a.example."),
            ("http://a\\b.example/x", "a\\b.example"),
        ] {
            #expect(OriginURL.connectionHost(of: url) == host, "\(url)")
            #expect(OriginURL(parsing: url).connectionEndpoint?.host.lowercased() == host, "\(url)")
        }
        #expect(OriginURL.connectionOrigin(of: "https://Example.com/x") == "https://example.com:443")
        #expect(OriginURL.connectionOrigin(of: "http://u@example.com/x") == nil)
        #expect(OriginURL.connectionHost(of: "file:///etc/passwd") == nil)
    }
}
