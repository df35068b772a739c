import Foundation
@testable import Proxy
import TestSupport
import Testing

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

    @Test func debugLogsTheBodyClassificationOfAMediaPlaylistAndOfANonPlaylistPassedThrough() async throws {
        try await withProxy { proxy in
            let original = try #require(FileManager.default.contents(atPath: Fixtures.directory.path + "/vod-ts/v0/index.m3u8"))
            proxy.origin.setFault("/broken/index.m3u8", .body(Array(original), contentType: "application/vnd.apple.mpegurl"))
            proxy.origin.setFault("/broken/page", .body(Array("<html>maintenance</html>".utf8), contentType: "text/html"))
            #expect(try await proxy.get("/origin/broken/index.m3u8").status == 200)
            #expect(try await proxy.get("/origin/broken/page").status == 200)
            let bodies = Self.debugLines(proxy, "classified body")
            #expect(bodies.contains {
                $0.contains("\"path\":\"/origin/broken/index.m3u8\"") && $0.contains("\"body\":\"media playlist\"")
                    && $0.contains("\"action\":\"passed through\"")
            }, "\(bodies)")
            #expect(bodies.contains {
                $0.contains("\"path\":\"/origin/broken/page\"") && $0.contains("\"body\":\"not a playlist\"")
                    && $0.contains("\"action\":\"passed through\"")
            }, "\(bodies)")
        }
    }

    @Test func debugLogsAnOriginFetchThatGotNoAnswerWithItsStatus() async throws {
        // Port 1 on loopback: nothing listens there, so the connection is refused.
        let config = """
            { "mounts": { "dead": { "origin": "http://127.0.0.1:1", "segments": "proxy" } },
              "subtitles": [ { "name": "s", "masters": ["/dead/*.m3u8"],
                               "tracks": [ { "name": "English", "language": "en", "source": "en.vtt" } ] } ] }
            """
        try await withProxy(config) { proxy in
            let master = try await proxy.get("/dead/master.m3u8?sig=query-secret-value")
            let segment = try await proxy.get("/dead/seg.ts")
            #expect(master.status == 502 && segment.status == 502)
            let failed = Self.debugLines(proxy, "origin fetch failed")
            #expect(failed.contains {
                $0.contains("\"kind\":\"master\"") && $0.contains("127.0.0.1:1/master.m3u8?sig\"") && $0.contains("\"status\":\"502\"")
                    && $0.contains("\"ms\":\"")
            }, "\(failed)")
            #expect(failed.contains { $0.contains("\"kind\":\"segment\"") && $0.contains("/seg.ts\"") && $0.contains("\"status\":\"502\"") }, "\(failed)")
            #expect(!failed.contains { $0.contains("query-secret-value") })
        }
    }

    @Test func debugLogsEachPieceHitMissingRangeFetchAndPieceFill() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory, level: .debug)
        let first = try await proxy.get("/bucket/obj/300000.ts", headers: [("Range", "bytes=0-999")])
        let seek = try await proxy.get("/bucket/obj/300000.ts", headers: [("Range", "bytes=500-1999")])
        let replay = try await proxy.get("/bucket/obj/300000.ts", headers: [("Range", "bytes=0-1999")])
        await proxy.stop()
        origin.stop()
        #expect(first.status == 206 && seek.status == 206 && replay.status == 206)
        let disk = proxy.logLines.filter { $0.contains("\"level\":\"debug\"") && $0.contains("\"msg\":\"disk cache\"") }
        // The first range is stored as a piece as it is relayed.
        #expect(disk.contains {
            $0.contains("300000.ts\"") && $0.contains("\"cache\":\"piece fill\"") && $0.contains("\"range\":\"0-999/300000\"")
                && $0.contains("\"bytes\":\"1000\"")
        }, "\(disk)")
        // The seek finds part of its range stored, names the missing range and stores it when fetched.
        #expect(disk.contains { $0.contains("\"cache\":\"piece partial hit\"") && $0.contains("\"range\":\"500-1999\"") && $0.contains("\"missing\":\"1000-1999\"") }, "\(disk)")
        #expect(disk.contains { $0.contains("\"cache\":\"piece fill\"") && $0.contains("\"range\":\"1000-1999/300000\"") }, "\(disk)")
        // The replay is answered from the pieces alone.
        #expect(disk.contains { $0.contains("\"cache\":\"piece hit\"") && $0.contains("\"range\":\"0-1999\"") }, "\(disk)")
        // Each range asked of the origin has its fetch line, with the range.
        let fetches = proxy.logLines.filter { $0.contains("\"level\":\"debug\"") && $0.contains("\"msg\":\"origin fetch\"") }
        #expect(fetches.contains { $0.contains("\"range\":\"bytes=0-999\"") && $0.contains("\"status\":\"206\"") }, "\(fetches)")
        #expect(fetches.contains { $0.contains("\"range\":\"bytes=1000-1999\"") && $0.contains("\"status\":\"206\"") }, "\(fetches)")
        #expect(fetches.count == 2, "\(fetches)")
    }

    @Test func debugLogsWhyAPieceIsNotFilled() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A budget smaller than the range: the piece does not fit.
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory, maxBytes: 100, level: .debug)
        let response = try await proxy.get("/bucket/obj/300000.ts", headers: [("Range", "bytes=0-999")])
        await proxy.stop()
        origin.stop()
        #expect(response.status == 206)
        #expect(response.body == GeneratedOrigin.bytes(0...999))
        let disk = proxy.logLines.filter { $0.contains("\"level\":\"debug\"") && $0.contains("\"msg\":\"disk cache\"") }
        #expect(disk.contains { $0.contains("\"cache\":\"piece not filled: over budget or already filling\"") && $0.contains("\"range\":\"0-999/300000\"") }, "\(disk)")
    }

    @Test func noDebugLineOfARangedPassThroughThroughATokenMountCarriesTheTokenOrAQueryValue() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory, level: .debug)
        let query = "?sig=query-secret-value"
        _ = try await proxy.get("/bucket/obj/300000.ts" + query, headers: [("Range", "bytes=0-999")])
        _ = try await proxy.get("/bucket/obj/300000.ts" + query, headers: [("Range", "bytes=500-1999")])
        _ = try await proxy.get("/bucket/obj/300000.ts" + query, headers: [("Range", "bytes=0-1999")])
        _ = try await proxy.get("/bucket/obj/300000.ts" + query, method: "HEAD", headers: [("Range", "bytes=0-1999")])
        await proxy.stop()
        origin.stop()
        #expect(origin.requests("/obj/300000.ts").allSatisfy { $0.range != nil }, "every origin request was a range")
        let debug = proxy.logLines.filter { $0.contains("\"level\":\"debug\"") }
        #expect(debug.contains { $0.contains("piece partial hit") } && debug.contains { $0.contains("piece fill") })
        for line in debug {
            #expect(!line.contains("secret-token"), "\(line)")
            #expect(!line.contains("Bearer"), "\(line)")
            #expect(!line.contains("query-secret-value"), "\(line)")
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
