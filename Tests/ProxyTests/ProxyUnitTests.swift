import Foundation
import HTTPServer
@testable import HTTPWire
@testable import Proxy
import TestSupport
import Testing

/// The proxy's pure pieces: URL encoding, Range, routing, the command line.
@Suite struct ProxyUnitTests {
    @Test(arguments: ["", "f", "fo", "foo", "foob", "fooba", "foobar", "/sample/master.m3u8?a=1&b=%2F", "/é/ü"])
    func base64URLRoundTrips(text: String) throws {
        let encoded = Base64URL.encode(Array(text.utf8))
        #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
        #expect(Base64URL.decode(Substring(encoded)) == Array(text.utf8))
    }

    @Test func base64URLMatchesRFC4648Vectors() {
        // RFC 4648 §10 test vectors, without padding.
        #expect(Base64URL.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(Base64URL.encode(Array("fooba".utf8)) == "Zm9vYmE")
        #expect(Base64URL.encode(Array("f".utf8)) == "Zg")
        #expect(Base64URL.decode("Z") == nil)
        #expect(Base64URL.decode("Zm9v!") == nil)
    }

    @Test func subtitleURLsRoundTripThroughTheirPath() throws {
        let url = SubtitleURL(setName: "vod", trackID: "en", masterTarget: "/sample/master.m3u8?token=x", resource: .segment(7))
        let segments = url.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        #expect(segments.first == "_hls-proxy")
        #expect(SubtitleURL(segmentsAfterPrefix: segments.dropFirst()) == url)
        let playlist = SubtitleURL(setName: "vod", trackID: "en", masterTarget: "/m.m3u8", resource: .playlist)
        #expect(playlist.path.hasSuffix("/index.m3u8"))
    }

    @Test(arguments: [
        (nil, 100, ByteRangeRequest.Outcome.whole),
        ("bytes=0-9", 100, .partial(lower: 0, upper: 9)),
        ("bytes=90-", 100, .partial(lower: 90, upper: 99)),
        ("bytes=90-1000", 100, .partial(lower: 90, upper: 99)),
        ("bytes=-10", 100, .partial(lower: 90, upper: 99)),
        ("bytes=-1000", 100, .partial(lower: 0, upper: 99)),
        ("bytes=100-", 100, .unsatisfiable),
        ("bytes=-0", 100, .unsatisfiable),
        ("bytes=0-0,5-6", 100, .whole),
        ("bytes=9-3", 100, .whole),
        ("items=0-1", 100, .whole),
        ("bytes=abc", 100, .whole),
        // RFC 9110 §14.1.2: a first-byte-pos past the end is unsatisfiable however many digits it has,
        // and a last-byte-pos past it is the end.
        ("bytes=99999999999999999999999-", 100, .unsatisfiable),
        ("bytes=0-9223372036854775807", 100, .partial(lower: 0, upper: 99)),
        ("bytes=10-99999999999999999999999", 100, .partial(lower: 10, upper: 99)),
        ("bytes=-99999999999999999999999", 100, .partial(lower: 0, upper: 99)),
        ("bytes=0-", 0, .unsatisfiable),
    ] as [(String?, Int, ByteRangeRequest.Outcome)])
    func rangeHeadersAreInterpretedAsRFC9110Says(header: String?, length: Int, expected: ByteRangeRequest.Outcome) {
        #expect(ByteRangeRequest.outcome(header: header, length: length) == expected)
    }

    @Test(arguments: [
        ("example.com", "example.com"), ("Example.COM:8443", "example.com"), ("127.0.0.1:80", "127.0.0.1"),
        ("[::1]", "[::1]"), ("[::1]:8080", "[::1]"), ("[FD00::5]:443", "[fd00::5]"),
    ])
    func embeddedAuthoritiesAreParsedStrictly(authority: String, host: String) {
        #expect(EmbeddedAuthority.host(of: Substring(authority)) == host)
    }

    @Test(arguments: ["user@host", "host:", "host:0", "host:65536", "host:8a", "-host", "ho%2Fst", "[::1", "[::1]:", "", "a b"])
    func malformedEmbeddedAuthoritiesAreRefused(authority: String) {
        #expect(EmbeddedAuthority.host(of: Substring(authority)) == nil)
    }

    @Test func commandLineFlagsWinOverEnvironment() throws {
        let options = try CommandLineOptions.parse(["--port", "9000", "--log-level=debug"], environment: [
            "HLS_PROXY_PORT": "7000", "HLS_PROXY_HOST": "::1", "HLS_PROXY_CONFIG": "/etc/proxy.json",
        ])
        #expect(options.port == 9000)
        #expect(options.host == "::1")
        #expect(options.configPath == "/etc/proxy.json")
        #expect(options.logLevel == .debug)
        #expect(options.action == .serve)
        let platform = try CommandLineOptions.parse([], environment: ["PORT": "5000"])
        #expect(platform.port == 5000)
        #expect(platform.threads == nil)
        let threads = try CommandLineOptions.parse(["--threads=4"], environment: ["HLS_PROXY_THREADS": "2"])
        #expect(threads.threads == 4)
        #expect(try CommandLineOptions.parse([], environment: ["HLS_PROXY_THREADS": "2"]).threads == 2)
    }

    @Test(arguments: [["--bogus"], ["--port", "http"], ["--port", "70000"], ["--port"], ["--log-level", "loud"], ["--url", "x"],
                      ["--threads", "0"], ["--threads", "65"], ["--threads", "two"], ["--threads"],
                      ["rewrite", "--config", "c.json"], ["rewrite", "--url", "http://h/m.m3u8"]])
    func badCommandLinesAreUsageErrors(arguments: [String]) {
        #expect(throws: CommandLineOptions.UsageError.self) {
            try CommandLineOptions.parse(arguments, environment: [:])
        }
    }

    @Test func rewriteSubcommandParses() throws {
        let options = try CommandLineOptions.parse(["rewrite", "--config", "c.json", "--url", "http://127.0.0.1:8080/s/m.m3u8", "in.m3u8"], environment: [:])
        #expect(options.action == .rewrite(CommandLineOptions.RewriteRequest(url: "http://127.0.0.1:8080/s/m.m3u8", input: "in.m3u8")))
        #expect(options.configPath == "c.json")
    }

    @Test func offlineRewriteMatchesWhatTheServerWouldServe() async throws {
        let root = Fixtures.repositoryRoot.path
        let config = try ProxyConfig.load(contentsOf: root + "/config.example.json", environment: [:])
        let master = Array(try #require(FileManager.default.contents(atPath: root + "/Examples/sample-vod/master.m3u8")))
        let output = try await OfflineRewrite.rewrite(master, proxyURL: "http://127.0.0.1:8080/sample/master.m3u8", config: config)
        let text = String(decoding: output, as: UTF8.self)
        let expectedURI = SubtitleURL(setName: "sample", trackID: "en", masterTarget: "/sample/master.m3u8", resource: .playlist).path
        #expect(text.contains("URI=\"\(expectedURI)\""))
        #expect(text.components(separatedBy: "#EXT-X-MEDIA:TYPE=SUBTITLES").count == 4)
        await #expect(throws: ProxyError.self) {
            try await OfflineRewrite.rewrite(master, proxyURL: "http://127.0.0.1:8080/nomount/master.m3u8", config: config)
        }
        await #expect(throws: ProxyError.self) {
            try await OfflineRewrite.rewrite(Array("not a playlist".utf8), proxyURL: "http://127.0.0.1:8080/sample/master.m3u8", config: config)
        }
    }
}

/// Health and readiness follow the server's state, without a socket in between.
@Suite struct HealthTests {
    static func handler(accepting: Bool) throws -> ProxyHandler {
        let config = try ProxyConfig.decode(Array("{}".utf8), environment: [:])
        return ProxyHandler(config: config, origin: OriginClient(configuration: .init()), logger: .silent) { (3, accepting) }
    }

    static func get(_ handler: ProxyHandler, _ path: String) async -> HTTPResponse {
        await handler.handle(HTTPRequest(method: .get, target: path, path: path, rawPath: path, query: nil))
    }

    @Test func healthIsOkWhileServingAnd503WhileDraining() async throws {
        let serving = await Self.get(try Self.handler(accepting: true), "/healthz")
        #expect(serving.status == .ok)
        let draining = await Self.get(try Self.handler(accepting: false), "/healthz")
        #expect(draining.status == .serviceUnavailable)
        let notReady = await Self.get(try Self.handler(accepting: false), "/readyz")
        #expect(notReady.status == .serviceUnavailable)
        let ready = await Self.get(try Self.handler(accepting: true), "/readyz")
        #expect(ready.status == .ok)
    }

    @Test func metricsUseThePrometheusTextFormat() async throws {
        let handler = try Self.handler(accepting: true)
        _ = await Self.get(handler, "/healthz")
        _ = await Self.get(handler, "/nowhere/x")
        let response = await Self.get(handler, "/metrics")
        #expect(response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
        guard case .bytes(let body) = response.body else {
            Issue.record("metrics body is not bytes")
            return
        }
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains("hls_proxy_requests_total{route=\"health\",status=\"2xx\"} 1"))
        #expect(text.contains("hls_proxy_requests_total{route=\"error\",status=\"4xx\"} 1"))
        #expect(text.contains("hls_proxy_open_connections 3"))
        // Every sample line belongs to a family announced by HELP and TYPE lines.
        let families = Set(text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.compactMap { $0.split(separator: " ").dropFirst(2).first })
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let name = line.prefix { $0 != "{" && $0 != " " }
            let family = ["_bucket", "_sum", "_count"].reduce(String(name)) { name, suffix in
                name.hasSuffix(suffix) && !families.contains(Substring(name)) ? String(name.dropLast(suffix.count)) : name
            }
            #expect(families.contains(Substring(family)), "\(line) has no TYPE line")
        }
    }
}

/// Relative URIs of a redirected master, re-based onto what the player can reach.
@Suite struct MasterRelocationTests {
    static func relocation() throws -> MasterRelocation {
        let config = try ProxyConfig.decode(Array("""
            { "mounts": { "cdn": { "origin": "http://cdn.example" } }, "embedded": { "allow_hosts": ["*.allowed.example"] } }
            """.utf8), environment: [:])
        return MasterRelocation(router: RequestRouter(config: config), mounts: config.mounts)
    }

    @Test func uriLinesAndURIAttributesAreMapped() throws {
        let master = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="audio/en.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO="a"
            hi/index.m3u8?x=1
            #EXT-X-STREAM-INF:BANDWIDTH=2
            https://elsewhere.example/abs.m3u8

            """
        let moved = try Self.relocation().relocate(Array(master.utf8), requestedURL: "http://cdn.example/old/master.m3u8",
                                                   finalURL: "http://cdn.example/new/dir/master.m3u8?sig=1")
        #expect(String(decoding: moved, as: UTF8.self) == """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="/cdn/new/dir/audio/en.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO="a"
            /cdn/new/dir/hi/index.m3u8?x=1
            #EXT-X-STREAM-INF:BANDWIDTH=2
            https://elsewhere.example/abs.m3u8

            """)
    }

    @Test func targetsOutsideEveryMountUseTheEmbeddedFormOrTheirAbsoluteURL() throws {
        let relocation = try Self.relocation()
        #expect(relocation.proxyReference("v/1.m3u8", finalURL: "https://edge.allowed.example/a/m.m3u8") == "/https/edge.allowed.example/a/v/1.m3u8")
        #expect(relocation.proxyReference("v/1.m3u8", finalURL: "https://other.example/a/m.m3u8") == "https://other.example/a/v/1.m3u8")
        #expect(relocation.proxyReference("https://x.example/y", finalURL: "http://cdn.example/a/m.m3u8") == nil)
    }

    @Test func aRedirectWithinTheSameDirectoryChangesNothing() throws {
        let master = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n".utf8)
        let same = try Self.relocation().relocate(master, requestedURL: "http://cdn.example/a/m.m3u8", finalURL: "http://cdn.example/a/n.m3u8?t=2")
        #expect(same == master)
    }
}

/// What the proxy answers on the server's loop thread, and what it leaves for the async handler.
@Suite struct ImmediateAnswerTests {
    static func handler() throws -> ProxyHandler {
        let config = try ProxyConfig.decode(Array("""
            { "mounts": { "files": { "origin": "\(Fixtures.directory.path)" }, "web": { "origin": "http://127.0.0.1:1" } },
              "subtitles": [ { "name": "s", "masters": ["/files/vod-ts/master.m3u8"],
                               "tracks": [ { "name": "English", "language": "en", "source": "/subtitles/en.vtt" } ] } ] }
            """.utf8), environment: [:])
        return ProxyHandler(config: config, origin: OriginClient(configuration: .init()), logger: .silent)
    }

    static func request(_ path: String, method: HTTPMethod = .get) -> HTTPRequest {
        HTTPRequest(method: method, target: path, path: path, rawPath: path, query: nil)
    }

    @Test func redirectsHealthPreflightAndErrorsAreAnsweredAtOnce() throws {
        let handler = try Self.handler()
        #expect(handler.handleImmediately(Self.request("/web/a/seg.ts"))?.status == .found)
        #expect(handler.handleImmediately(Self.request("/healthz"))?.status == .ok)
        #expect(handler.handleImmediately(Self.request("/x", method: .options))?.status == .noContent)
        #expect(handler.handleImmediately(Self.request("/nowhere/x"))?.status == .notFound)
        #expect(handler.handleImmediately(Self.request("/web/a/seg.ts"))?.headers["X-HLS-Proxy-Route"] == "redirect")
    }

    @Test func filesOfDirectoryMountsAreAnsweredAtOnceAsFileRegions() throws {
        let handler = try Self.handler()
        let response = try #require(handler.handleImmediately(Self.request("/files/vod-ts/v0/seg000.ts")))
        let size = try #require(FileManager.default.attributesOfItem(atPath: Fixtures.directory.path + "/vod-ts/v0/seg000.ts")[.size] as? Int)
        guard case .file(let region) = response.body else {
            Issue.record("expected a file body, got \(response.body)")
            return
        }
        #expect(region.offset == 0)
        #expect(region.length == size)
        #expect(handler.handleImmediately(Self.request("/files/vod-ts/v0/nope.ts"))?.status == .notFound)
        #expect(handler.handleImmediately(Self.request("/files/vod-ts/v0"))?.status == .forbidden)
    }

    @Test func workThatWaitsOnOriginsIsLeftToTheAsyncHandler() throws {
        let handler = try Self.handler()
        #expect(handler.handleImmediately(Self.request("/files/vod-ts/master.m3u8")) == nil)
        #expect(handler.handleImmediately(Self.request("/_hls-proxy/v1/s/en/L2ZpbGVzL3ZvZC10cy9tYXN0ZXIubTN1OA/index.m3u8")) == nil)
    }

    @Test func aCachedMasterIsAnsweredAtOnceWithTheSameBytes() async throws {
        let handler = try Self.handler()
        let first = await handler.handle(Self.request("/files/vod-ts/master.m3u8"))
        #expect(first.status == .ok)
        let cached = try #require(handler.handleImmediately(Self.request("/files/vod-ts/master.m3u8")))
        guard case .bytes(let a) = first.body, case .bytes(let b) = cached.body else {
            Issue.record("bodies are not bytes")
            return
        }
        #expect(a == b)
        #expect(cached.headers["X-HLS-Proxy-Route"] == "master")
    }

    @Test func theAsyncHandlerAnswersAFileOfADirectoryMountAsTheImmediateOneDoes() async throws {
        let handler = try Self.handler()
        for path in ["/files/vod-ts/v0/seg000.ts", "/files/vod-ts/v0/index.m3u8", "/files/vod-ts/v0/nope.ts", "/files/vod-ts/v0"] {
            let immediate = try #require(handler.handleImmediately(Self.request(path)))
            let later = await handler.handle(Self.request(path))
            #expect(later.status == immediate.status, "\(path)")
            #expect(later.headers["X-HLS-Proxy-Route"] == immediate.headers["X-HLS-Proxy-Route"], "\(path)")
            #expect(later.body.count == immediate.body.count, "\(path)")
        }
    }
}

/// Access lines are JSON whatever the request carried.
@Suite struct AccessLogTests {
    @Test func accessLinesAreValidJSONEvenForHostilePaths() throws {
        let lines = LockedBox<[String]>([])
        let logger = ProxyLogger(level: .error, accessSink: { line in lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) } }, diagnosticSink: { _ in })
        let hostile = "/a\"b\\c\u{1}d\u{7F}é"
        logger.access(method: "GET", path: hostile, route: .redirect, status: 302, bytes: 0,
                      durationMilliseconds: 1.2345, originMilliseconds: 0, client: "[::1]:5000")
        let line = try #require(lines.withLock { $0.first })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["path"] as? String == hostile)
        #expect(object["duration_ms"] as? Double == 1.235)
        #expect(object["origin_ms"] as? Double == 0)
        #expect(object["status"] as? Int == 302)
        #expect(line.contains("\"duration_ms\":1.235,"))
    }

    @Test func aDisabledAccessLogBuildsNoLine() {
        let lines = LockedBox<[String]>([])
        var logger = ProxyLogger(level: .error, accessSink: { line in lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) } }, diagnosticSink: { _ in })
        logger.accessEnabled = false
        logger.access(method: "GET", path: "/", route: .health, status: 200, bytes: 3, durationMilliseconds: 0, originMilliseconds: 0, client: "")
        #expect(lines.withLock { $0.isEmpty })
    }

    @Test func theConfigCanTurnTheAccessLogOff() throws {
        #expect(try ProxyConfig.decode(Array(#"{ "access_log": false }"#.utf8), environment: [:]).accessLog == false)
        #expect(try ProxyConfig.decode(Array("{}".utf8), environment: [:]).accessLog == true)
        #expect(throws: ConfigError.self) { try ProxyConfig.decode(Array(#"{ "access_log": "sometimes" }"#.utf8), environment: [:]) }
    }
}

/// The configs shipped as examples stay valid.
@Suite struct ShippedConfigTests {
    @Test func theKubernetesExampleConfigIsValid() throws {
        let yaml = try String(contentsOfFile: RealPlayerTests.repositoryRoot + "/deploy/kubernetes-sidecar.yaml", encoding: .utf8)
        // The ConfigMap's proxy.json block: the indented lines after "proxy.json: |".
        let lines = yaml.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.contains("proxy.json: |") })
        let block = lines[(start + 1)...].prefix { $0.hasPrefix("    ") || $0.isEmpty }.map { String($0.dropFirst(4)) }
        let config = try ProxyConfig.decode(Array(block.joined(separator: "\n").utf8), environment: ["ORIGIN_TOKEN": "t"])
        #expect(config.mounts.map(\.name) == ["vod"])
        #expect(config.subtitleSets.first?.tracks.count == 2)
    }
}
