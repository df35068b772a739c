import Foundation
import HTTPClient
import HTTPServer
@testable import Proxy
import Synchronization
import TestSupport

/// A proxy on port 0 in front of a FixtureOrigin, with logs captured in memory.
final class ProxyHarness: Sendable {
    let origin: FixtureOrigin
    let service: ProxyService
    private let lines: LockedBox<[String]>

    var port: Int { service.port }

    /// Starts an origin and a proxy whose config is `configJSON` with `ORIGIN` replaced by the origin's
    /// base URL and `FIXTURES` by the fixtures directory.
    init(
        configJSON: String, environment: [String: String] = ["TOKEN": "secret-token"], resolver: HostResolver = .system,
        level: LogSeverity = .debug, cacheClock: CacheClock = .system
    ) throws {
        let origin = try FixtureOrigin()
        self.origin = origin
        let json = configJSON
            .replacingOccurrences(of: "ORIGIN", with: origin.baseURL)
            .replacingOccurrences(of: "FIXTURES", with: Fixtures.directory.path)
        var config = try ProxyConfig.decode(Array(json.utf8), environment: environment)
        config.listen.port = 0
        let lines = LockedBox<[String]>([])
        self.lines = lines
        let logger = ProxyLogger(
            level: level,
            accessSink: { line in lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) } },
            diagnosticSink: { line in lines.withLock { $0.append(line) } }
        )
        service = ProxyService(config: config, logger: logger, resolver: resolver, cacheClock: cacheClock)
        try service.start()
    }

    /// Every log line so far (access and diagnostics).
    var logLines: [String] { lines.withLock { $0 } }

    func get(_ target: String, method: String = "GET", headers: [(String, String)] = []) async throws -> RawResponse {
        try await TestClient.get(port: port, target, method: method, headers: headers)
    }

    func stop() async {
        await service.stop()
        await origin.stop()
    }

    /// The standard test config: an http mount on the fixture origin, a file mount on the fixtures,
    /// and a subtitle set over the TS sample with en (VTT), fr (VTT) and es (SRT, single).
    static let standardConfig = """
        {
          "mounts": {
            "origin": { "origin": "ORIGIN", "forward_headers": ["Cookie"], "inject_headers": { "X-Origin-Token": "${TOKEN}" } },
            "proxied": { "origin": "ORIGIN", "segments": "proxy" },
            "files": { "origin": "FIXTURES" }
          },
          "embedded": { "allow_hosts": ["127.0.0.1"] },
          "subtitles": [
            {
              "name": "vod",
              "masters": ["/origin/vod-ts/master.m3u8", "/files/vod-ts/master.m3u8", "/http/127.0.0.1:*/vod-ts/master.m3u8",
                          "/origin/vod-fmp4/master.m3u8", "/origin/corpus/master/*.m3u8", "/origin/broken/*"],
              "tracks": [
                { "id": "en", "name": "English", "language": "en", "default": true, "autoselect": true,
                  "source": "/subtitles/en.vtt" },
                { "id": "fr", "name": "Français", "language": "fr", "autoselect": true, "source": "/subtitles/fr.vtt",
                  "offset": 1.5 },
                { "id": "es", "name": "Español", "language": "es", "autoselect": true, "source": "/subtitles/es.srt",
                  "mode": "single" }
              ]
            }
          ],
          "timeouts": { "origin_seconds": 10 },
          "limits": { "max_playlist_bytes": 65536 }
        }
        """
}

/// Runs `body` against a fresh proxy and origin, stopping both however `body` ends.
func withProxy(
    _ configJSON: String = ProxyHarness.standardConfig,
    environment: [String: String] = ["TOKEN": "secret-token"],
    resolver: HostResolver = .system,
    level: LogSeverity = .debug,
    cacheClock: CacheClock = .system,
    _ body: (ProxyHarness) async throws -> Void
) async throws {
    let proxy = try ProxyHarness(configJSON: configJSON, environment: environment, resolver: resolver, level: level, cacheClock: cacheClock)
    do {
        try await body(proxy)
    } catch {
        await proxy.stop()
        throw error
    }
    await proxy.stop()
}

/// Loads the repository's config.example.json.
enum ProxyConfigLoader {
    static func example() throws -> ProxyConfig {
        try ProxyConfig.load(contentsOf: RealPlayerTests.repositoryRoot + "/config.example.json", environment: [:])
    }
}
