import Foundation
import Testing
@testable import Proxy

/// `--log-level debug` says what happened to a request: origin fetches, cache decisions, where
/// X-TIMESTAMP-MAP came from and how a path and its body were classified; info says none of it,
/// and no level ever writes a secret.
@Suite struct DebugLogTests {
    static func debugLines(_ proxy: ProxyHarness, _ message: String) -> [String] {
        proxy.logLines.filter { $0.contains("\"level\":\"debug\"") && $0.contains("\"msg\":\"\(message)\"") }
    }

    /// Requests that go through every debug point: a master (fetch, memory cache, both
    /// classifications), its subtitle playlist (timestamp map from the first TS segment), a proxied
    /// segment and a redirected one.
    static func exercise(_ proxy: ProxyHarness, query: String = "", headers: [(String, String)] = []) async throws {
        #expect(try await proxy.get("/origin/vod-ts/master.m3u8" + query, headers: headers).status == 200)
        let master = "/origin/vod-ts/master.m3u8" + query
        let playlist = SubtitleURL(setName: "vod", trackID: "en", masterTarget: master, resource: .playlist).path
        #expect(try await proxy.get(playlist, headers: headers).status == 200)
        let file = SubtitleURL(setName: "vod", trackID: "en", masterTarget: master, resource: .segment(0)).path
        #expect(try await proxy.get(file, headers: headers).status == 200)
        #expect(try await proxy.get("/proxied/vod-ts/v0/seg000.ts" + query, headers: headers).status == 200)
        #expect(try await proxy.get("/origin/vod-ts/v0/seg001.ts" + query, headers: headers).status == 302)
    }

    @Test func debugLogsEachOriginFetchWithStatusTimeBytesAndTheCacheDecision() async throws {
        try await withProxy { proxy in
            try await Self.exercise(proxy)
            let fetches = Self.debugLines(proxy, "origin fetch")
            let master = try #require(fetches.first { $0.contains("\"kind\":\"master\"") }, "\(fetches)")
            #expect(master.contains("/vod-ts/master.m3u8\""))
            #expect(master.contains("\"status\":\"200\""))
            #expect(master.contains("\"ms\":\""))
            #expect(master.contains("\"bytes\":\""))
            #expect(fetches.contains { $0.contains("\"kind\":\"segment\"") && $0.contains("seg000.ts") })
            let cache = Self.debugLines(proxy, "playlist cache")
            #expect(cache.contains { $0.contains("master.m3u8") && $0.contains("\"cache\":\"memory miss, stored\"") }, "\(cache)")
        }
    }

    @Test func debugLogsWhereTheTimestampMapCameFrom() async throws {
        try await withProxy { proxy in
            try await Self.exercise(proxy)
            let maps = Self.debugLines(proxy, "timestamp map")
            let line = try #require(maps.first { $0.contains("\"track\":\"en\"") }, "\(maps)")
            #expect(line.contains("as MPEG-TS PES PTS"))
            #expect(line.contains("seg000.ts"))
            #expect(!line.contains("\"mpegts\":\"none\""))
        }
    }

    @Test func debugLogsHowEachPathAndBodyWasClassified() async throws {
        try await withProxy { proxy in
            try await Self.exercise(proxy)
            let paths = Self.debugLines(proxy, "classified path")
            #expect(paths.contains {
                $0.contains("\"decision\":\"master candidate\"") && $0.contains("\"set\":\"vod\"")
                    && $0.contains("\"pattern\":\"/origin/vod-ts/master.m3u8\"")
            }, "\(paths)")
            #expect(paths.contains { $0.contains("seg001.ts") && $0.contains("\"decision\":\"redirect\"") })
            #expect(paths.contains { $0.contains("seg000.ts") && $0.contains("\"decision\":\"pass-through\"") })
            let bodies = Self.debugLines(proxy, "classified body")
            #expect(bodies.contains { $0.contains("\"body\":\"master\"") })
        }
    }

    @Test func debugLogsEachDiskCacheMissFillAndHit() async throws {
        let directory = try DiskCacheHarness.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = """
            { "mounts": { "proxied": { "origin": "ORIGIN", "segments": "proxy" } },
              "cache": { "disk_directory": "\(directory)" } }
            """
        try await withProxy(config) { proxy in
            let first = try await proxy.get("/proxied/vod-ts/v0/seg000.ts")
            let second = try await proxy.get("/proxied/vod-ts/v0/seg000.ts")
            #expect(first.status == 200 && second.status == 200)
            let disk = Self.debugLines(proxy, "disk cache").filter { $0.contains("seg000.ts") }
            #expect(disk.contains { $0.contains("\"cache\":\"disk miss\"") }, "\(disk)")
            #expect(disk.contains { $0.contains("\"cache\":\"disk fill\"") && $0.contains("\"bytes\":\"") })
            #expect(disk.contains { $0.contains("\"cache\":\"disk hit\"") })
        }
    }

    @Test func atInfoNoDebugLineIsWritten() async throws {
        try await withProxy(level: .info) { proxy in
            try await Self.exercise(proxy)
            #expect(!proxy.logLines.contains { $0.contains("\"level\":\"debug\"") })
        }
    }

    @Test func noDebugLineEverCarriesAnInjectedHeaderAForwardedCookieOrAQueryValue() async throws {
        try await withProxy { proxy in
            try await Self.exercise(proxy, query: "?sig=query-secret-value&se=se-secret-value", headers: [("Cookie", "session=cookie-secret-value")])
            let debug = proxy.logLines.filter { $0.contains("\"level\":\"debug\"") }
            #expect(debug.count > 5)
            for line in debug {
                #expect(!line.contains("secret-token"), "\(line)")
                #expect(!line.contains("cookie-secret-value"), "\(line)")
                #expect(!line.contains("query-secret-value"), "\(line)")
                #expect(!line.contains("se-secret-value"), "\(line)")
            }
            // The query's parameter names stay, so the engineer sees a signed URL was fetched.
            #expect(Self.debugLines(proxy, "origin fetch").contains { $0.contains("master.m3u8?sig&se") })
        }
    }

    @Test func redactedURLsKeepOnlyQueryParameterNamesAndDropUserInformation() {
        #expect(ProxyLogger.redactedURL("https://user:pw@host.example/a/b.m3u8?sv=1&sig=abc#frag") == "https://host.example/a/b.m3u8?sv&sig")
        #expect(ProxyLogger.redactedURL("http://h/p?") == "http://h/p")
        #expect(ProxyLogger.redactedURL("file:///srv/x.ts") == "file:///srv/x.ts")
        #expect(ProxyLogger.redactedURL("http://h/p/a@b?x") == "http://h/p/a@b?x")
    }
}
