import Foundation
import HTTPServer
import Proxy
import TestSupport
import Testing

/// The executable as operators run it: flags, exit statuses, startup, logs, signals.
@Suite struct CommandLineTests {
    static let root = RealPlayerTests.repositoryRoot

    @Test func helpListsEveryFlagAndEnvironmentVariable() async throws {
        let result = try await RunningProcess.run(["--help"])
        #expect(result.status == 0)
        for word in ["--config", "--host", "--port", "--log-level", "--check-config", "--version", "--help", "rewrite",
                     "HLS_PROXY_CONFIG", "HLS_PROXY_HOST", "HLS_PROXY_PORT", "PORT", "HLS_PROXY_LOG_LEVEL", "--access-log",
                     "HLS_PROXY_ACCESS_LOG", "Example", "SIGTERM", "SIGHUP"] {
            #expect(result.out.contains(word), "--help does not mention \(word)")
        }
    }

    @Test func versionPrintsTheVersion() async throws {
        let result = try await RunningProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.out.hasPrefix("hls-subtitle-proxy 0."))
    }

    @Test(arguments: [["--bogus"], ["--port", "eighty"], ["--log-level", "chatty"]])
    func badArgumentsPrintOneLineAndExit2(arguments: [String]) async throws {
        let result = try await RunningProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.err.split(separator: "\n").count == 1, "\(result.err)")
        #expect(result.err.hasPrefix("hls-subtitle-proxy: "))
    }

    @Test func badEnvironmentValuesExit2() async throws {
        let result = try await RunningProcess.run([], environment: ["HLS_PROXY_PORT": "99999"])
        #expect(result.status == 2)
        #expect(result.err.contains("HLS_PROXY_PORT"))
    }

    @Test func checkConfigAcceptsTheExample() async throws {
        let result = try await RunningProcess.run(["--check-config", "--config", Self.root + "/config.example.json"])
        #expect(result.status == 0)
        #expect(result.out.contains("test is successful"))
        // The ceiling in force, and where it comes from (the example leaves it derived).
        #expect(result.out.contains("origin exchanges: at most "), "\(result.out)")
        #expect(result.out.contains("derived"), "\(result.out)")
    }

    @Test func checkConfigListsEveryProblemByFieldPath() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).json").path
        try Data(#"{ "listen": { "port": 70000 }, "mounts": { "healthz": { "origin": "ftp://x" } }, "bogus": 1 }"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await RunningProcess.run(["--check-config", "--config", path])
        #expect(result.status == 1)
        #expect(result.out.contains("listen.port"))
        #expect(result.out.contains("mounts.healthz"))
        #expect(result.out.contains("bogus"))
    }

    @Test func anUnreadableConfigIsOneClearLineAndExit1() async throws {
        let result = try await RunningProcess.run(["--config", "/nonexistent/proxy.json"])
        #expect(result.status == 1)
        #expect(result.err.contains("/nonexistent/proxy.json"))
    }

    @Test func aTakenPortIsOneClearLineAndExit1() async throws {
        let holder = HTTPServer(configuration: HTTPServerConfiguration(port: 0)) { _ in HTTPResponse(status: .ok) }
        try holder.start()
        let result = try await RunningProcess.run(["--port", String(holder.port)])
        await holder.stop(gracePeriod: .milliseconds(10))
        #expect(result.status == 1)
        #expect(result.err.contains("Address already in use"), "\(result.err)")
    }

    @Test func itServesLogsAndDrainsOnSIGTERM() async throws {
        let child = try RunningProcess(["--config", "config.example.json", "--port", "0"], currentDirectory: Self.root)
        let banner = try #require(try await child.waitForError(containing: "listening on http://"))
        #expect(banner.contains("mount /sample/"))
        #expect(banner.contains("/sample/master.m3u8"))
        let portText = try #require(banner.components(separatedBy: "listening on http://127.0.0.1:").last?.prefix { $0.isNumber })
        let port = try #require(Int(portText))
        let health = try await TestClient.get(port: port, "/healthz")
        #expect(health.status == 200)
        let master = try await TestClient.get(port: port, "/sample/master.m3u8")
        #expect(master.status == 200)
        let metrics = try await TestClient.get(port: port, "/metrics")
        #expect(metrics.text.contains("hls_proxy_requests_total{route=\"master\",status=\"2xx\"} 1"))
        #expect(metrics.text.contains("# TYPE hls_proxy_open_connections gauge"))
        child.terminate()  // SIGTERM
        let status = try await child.waitForExit(timeout: .seconds(15))
        #expect(status == 0)
        // One JSON access line per request on stdout, with the documented fields.
        let access = child.standardOutput.split(separator: "\n").filter { $0.contains("\"route\":\"master\"") }
        #expect(access.count == 1)
        let line = try #require(access.first)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        for key in ["time", "method", "path", "route", "status", "bytes", "duration_ms", "origin_ms", "client"] {
            #expect(fields[key] != nil, "access log lacks \(key)")
        }
        #expect(child.standardError.contains("draining"))
    }

    @Test func sigtermLetsASlowRequestFinishThenRefusesNewConnections() async throws {
        let origin = try FixtureOrigin()
        origin.setFault("/slow/master.m3u8", .delay(.milliseconds(1500)))
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("slow-\(UUID().uuidString).json").path
        try Data("""
            { "mounts": { "o": { "origin": "\(origin.baseURL)" } },
              "subtitles": [ { "name": "s", "tracks": [ { "name": "English", "language": "en", "source": "en.vtt" } ] } ],
              "timeouts": { "shutdown_seconds": 10 } }
            """.utf8).write(to: URL(fileURLWithPath: config))
        defer { try? FileManager.default.removeItem(atPath: config) }
        let child = try RunningProcess(["--config", config, "--port", "0"])
        let banner = try #require(try await child.waitForError(containing: "listening on http://"))
        let portText = try #require(banner.components(separatedBy: "listening on http://127.0.0.1:").last?.prefix { $0.isNumber })
        let port = try #require(Int(portText))
        async let slow = TestClient.get(port: port, "/o/slow/master.m3u8")
        // Let the request reach the origin, then ask the proxy to stop while it waits there.
        try await eventually { origin.hits("/slow/master.m3u8") > 0 }
        child.terminate()
        #expect(try await child.waitForError(containing: "draining") != nil)
        // The listener closes as the drain starts (the log line comes just before): the bound stays as
        // short as the loop it replaces, so refusal must come while the slow request still drains.
        try await eventually("new connections were still accepted while draining", timeout: .seconds(1)) {
            await (try? TestClient.get(port: port, "/healthz")) == nil
        }
        // The origin answers 404 after its delay: the in-flight request still gets its answer.
        let answered = try await slow
        #expect(answered.status == 404)
        #expect(try await child.waitForExit(timeout: .seconds(15)) == 0)
        await origin.stop()
    }

    @Test func theAccessLogCanBeTurnedOff() async throws {
        let child = try RunningProcess(["--config", "config.example.json", "--port", "0"], environment: ["HLS_PROXY_ACCESS_LOG": "off"],
                                       currentDirectory: Self.root)
        let banner = try #require(try await child.waitForError(containing: "listening on http://"))
        let portText = try #require(banner.components(separatedBy: "listening on http://127.0.0.1:").last?.prefix { $0.isNumber })
        let port = try #require(Int(portText))
        let health = try await TestClient.get(port: port, "/healthz")
        #expect(health.status == 200)
        child.terminate()
        #expect(try await child.waitForExit(timeout: .seconds(15)) == 0)
        #expect(child.standardOutput.isEmpty)
    }

    @Test func sigintDrainsAndExitsZeroToo() async throws {
        let child = try RunningProcess(["--config", "config.example.json", "--port", "0"], currentDirectory: Self.root)
        #expect(try await child.waitForError(containing: "listening on http://") != nil)
        child.interrupt()  // SIGINT
        #expect(try await child.waitForExit(timeout: .seconds(15)) == 0)
        #expect(child.standardError.contains("signal 2: draining"))
    }

    @Test func aClosedAccessLogPipeDoesNotStopTheServer() async throws {
        // The access-log reader is gone from the start: every access line meets EPIPE.
        let child = try RunningProcess(["--config", "config.example.json", "--port", "0"], currentDirectory: Self.root,
                                       closedStandardOutput: true)
        let banner = try #require(try await child.waitForError(containing: "listening on http://"))
        let portText = try #require(banner.components(separatedBy: "listening on http://127.0.0.1:").last?.prefix { $0.isNumber })
        let port = try #require(Int(portText))
        for _ in 0..<3 {
            let health = try await TestClient.get(port: port, "/healthz")
            #expect(health.status == 200)
        }
        #expect(child.isRunning)
        child.terminate()
        #expect(try await child.waitForExit(timeout: .seconds(15)) == 0)
    }

    @Test func rewritePrintsWhatTheServerServes() async throws {
        let result = try await RunningProcess.run([
            "rewrite", "--config", "config.example.json", "--url", "http://127.0.0.1:8080/sample/master.m3u8",
            "Examples/sample-vod/master.m3u8",
        ], currentDirectory: Self.root)
        #expect(result.status == 0)
        var config = try ProxyConfigLoader.example()
        config.listen.port = 0
        let service = ProxyService(config: config, logger: .silent)
        try service.start()
        let served = try await TestClient.get(port: service.port, "/sample/master.m3u8")
        await service.stop()
        #expect(result.out == served.text)
    }
}
