import Foundation
import Glibc
import TestSupport
import Testing

/// SIGHUP re-reads the config file in the running process: a valid file replaces the running config
/// for new requests, an invalid one is refused and the old one keeps serving, the listener stays.
@Suite struct ConfigReloadTests {
    /// A scratch folder with a config file that the tests rewrite between signals.
    struct Scratch {
        let root: String
        var configPath: String { root + "/proxy.json" }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }

        /// A directory holding one file, `hello.txt`, with `text` in it.
        func directory(_ name: String, hello text: String) throws -> String {
            let path = root + "/" + name
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/hello.txt"))
            return path
        }

        func writeConfig(_ json: String) throws {
            try Data(json.utf8).write(to: URL(fileURLWithPath: configPath))
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    /// Starts the proxy on `arguments` and returns it with the port from its banner.
    static func start(_ arguments: [String]) async throws -> (RunningProcess, Int) {
        let child = try RunningProcess(arguments)
        let banner = try #require(try await child.waitForError(containing: "listening on http://"))
        let portText = try #require(banner.components(separatedBy: "listening on http://127.0.0.1:").last?.prefix { $0.isNumber })
        return (child, try #require(Int(portText)))
    }

    /// Sends SIGHUP and waits until the log has `count` reload lines (applied or refused) in all.
    static func reload(_ child: RunningProcess, expectingLines count: Int) async throws {
        child.hangUp()
        // A child that exits has written all the lines it will: the count below says what is missing.
        try await eventually("\(count) reload line(s) in:\n\(child.standardError)") {
            reloadLines(child).count >= count || !child.isRunning
        }
        #expect(reloadLines(child).count == count, "expected \(count) reload line(s) in:\n\(child.standardError)")
    }

    static func reloadLines(_ child: RunningProcess) -> [Substring] {
        child.standardError.split(separator: "\n").filter {
            $0.contains("reloaded configuration file") || $0.contains("configuration reload refused")
        }
    }

    @Test func sighupSwapsInAnEditedMountAndANewOneWithOneReloadLine() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let x = try scratch.directory("x", hello: "from x")
        let y = try scratch.directory("y", hello: "from y")
        try scratch.writeConfig(#"{ "mounts": { "m": { "origin": "\#(x)" } } }"#)
        let (child, port) = try await Self.start(["--config", scratch.configPath, "--port", "0"])
        #expect(try await TestClient.get(port: port, "/m/hello.txt").text == "from x")

        try scratch.writeConfig(#"{ "mounts": { "m": { "origin": "\#(y)" }, "n": { "origin": "\#(x)" } } }"#)
        try await Self.reload(child, expectingLines: 1)
        let line = try #require(Self.reloadLines(child).first)
        #expect(line.contains("reloaded configuration file \(scratch.configPath)"))
        #expect(line.contains("mounts +n ~m"), "the line names what changed: \(line)")
        #expect(!child.standardError.contains("need a restart"))

        #expect(try await TestClient.get(port: port, "/m/hello.txt").text == "from y")
        #expect(try await TestClient.get(port: port, "/n/hello.txt").text == "from x")
        let metrics = try await TestClient.get(port: port, "/metrics").text
        #expect(metrics.contains("hls_proxy_config_reloads_total{result=\"ok\"} 1"))
        #expect(metrics.contains("hls_proxy_config_reloads_total{result=\"failed\"} 0"))
        child.terminate()
        #expect(try await child.waitForExit(timeout: .seconds(15)) == 0)
    }

    @Test func anInvalidEditIsRefusedByFieldPathAndTheOldConfigKeepsServing() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let x = try scratch.directory("x", hello: "from x")
        try scratch.writeConfig(#"{ "mounts": { "m": { "origin": "\#(x)" } } }"#)
        let (child, port) = try await Self.start(["--config", scratch.configPath, "--port", "0"])

        try scratch.writeConfig(#"{ "mounts": { "m": { "origin": "\#(x)" } }, "limits": { "max_connections": "many" }, "cors": 3 }"#)
        try await Self.reload(child, expectingLines: 1)
        let line = try #require(Self.reloadLines(child).first)
        #expect(line.contains("\"level\":\"error\""), "\(line)")
        #expect(line.contains("configuration reload refused"))
        #expect(line.contains("limits.max_connections"), "each problem by field path: \(line)")
        #expect(line.contains("cors"), "each problem by field path: \(line)")
        #expect(line.contains("\"problem_count\":\"2\""), "\(line)")

        #expect(try await TestClient.get(port: port, "/m/hello.txt").text == "from x")
        let metrics = try await TestClient.get(port: port, "/metrics").text
        #expect(metrics.contains("hls_proxy_config_reloads_total{result=\"failed\"} 1"))
        #expect(metrics.contains("hls_proxy_config_reloads_total{result=\"ok\"} 0"))

        // Truncated JSON is refused the same way; still no restart, still serving.
        try scratch.writeConfig(#"{ "mounts": { "m": "#)
        try await Self.reload(child, expectingLines: 2)
        #expect(child.isRunning)
        #expect(try await TestClient.get(port: port, "/m/hello.txt").text == "from x")
        child.terminate()
        #expect(try await child.waitForExit(timeout: .seconds(15)) == 0)
    }

    @Test func aListenPortChangeIsKeptWithARestartWarningAndTheSamePortServes() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let x = try scratch.directory("x", hello: "from x")
        let y = try scratch.directory("y", hello: "from y")
        let port = try LoopbackPort.free()
        try scratch.writeConfig(#"{ "listen": { "port": \#(port) }, "mounts": { "m": { "origin": "\#(x)" } } }"#)
        let (child, bound) = try await Self.start(["--config", scratch.configPath])
        #expect(bound == port)

        // Held bound for the whole run, so no parallel test's server can take it and answer on it.
        let other = LoopbackPort.refusing
        try scratch.writeConfig(#"{ "listen": { "port": \#(other), "threads": 2 }, "mounts": { "m": { "origin": "\#(y)" } } }"#)
        try await Self.reload(child, expectingLines: 1)
        let warning = try #require(child.standardError.split(separator: "\n").first { $0.contains("need a restart") })
        #expect(warning.contains("listen.port \(port) (the file says \(other))"), "\(warning)")
        #expect(warning.contains("listen.threads 1 (the file says 2)"), "\(warning)")
        // The rest of the file applies; the listener is the one it started with.
        #expect(try await TestClient.get(port: port, "/m/hello.txt").text == "from y")
        #expect(await (try? TestClient.get(port: other, "/healthz")) == nil, "nothing listens on the new port")
        child.terminate()
        #expect(try await child.waitForExit(timeout: .seconds(15)) == 0)
    }

    @Test func aPortFromTheCommandLineStillWinsOverTheReReadFile() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let x = try scratch.directory("x", hello: "from x")
        try scratch.writeConfig(#"{ "listen": { "port": 1 }, "mounts": { "m": { "origin": "\#(x)" } } }"#)
        let (child, port) = try await Self.start(["--config", scratch.configPath, "--port", "0"])
        try scratch.writeConfig(#"{ "listen": { "port": 2 }, "mounts": { "m": { "origin": "\#(x)" } } }"#)
        try await Self.reload(child, expectingLines: 1)
        #expect(!child.standardError.contains("need a restart"), "--port 0 applies again over the file: \(child.standardError)")
        #expect(Self.reloadLines(child).first?.contains("nothing changed") == true)
        #expect(try await TestClient.get(port: port, "/m/hello.txt").status == 200)
        child.terminate()
        #expect(try await child.waitForExit(timeout: .seconds(15)) == 0)
    }

    @Test func aSlowRequestStartedBeforeSighupFinishesOnTheOldConfig() async throws {
        let origin = try FixtureOrigin()
        origin.setFault("/vod-ts/master.m3u8", .delay(.milliseconds(1500)))
        let scratch = try Scratch()
        defer { scratch.remove() }
        func config(mount: String, language: String) -> String {
            #"""
            { "mounts": { "\#(mount)": { "origin": "\#(origin.baseURL)" } },
              "subtitles": [ { "name": "s", "masters": ["/*/vod-ts/master.m3u8"],
                "tracks": [ { "id": "t", "name": "Track", "language": "\#(language)", "source": "\#(origin.baseURL)/subtitles/en.vtt" } ] } ] }
            """#
        }
        try scratch.writeConfig(config(mount: "o", language: "en"))
        let (child, port) = try await Self.start(["--config", scratch.configPath, "--port", "0"])
        async let slow = TestClient.get(port: port, "/o/vod-ts/master.m3u8")
        try await eventually { origin.hits("/vod-ts/master.m3u8") > 0 }

        try scratch.writeConfig(config(mount: "p", language: "de"))
        try await Self.reload(child, expectingLines: 1)
        // New requests see the new file at once: the old mount is gone, the new one adds the new track.
        #expect(try await TestClient.get(port: port, "/o/vod-ts/master.m3u8").status == 404)
        origin.setFault("/vod-ts/master.m3u8", nil)
        let fresh = try await TestClient.get(port: port, "/p/vod-ts/master.m3u8")
        #expect(fresh.status == 200)
        #expect(fresh.text.contains("LANGUAGE=\"de\""), "\(fresh.text)")

        // The request that started before the signal finishes whole on the config it started with.
        let answered = try await slow
        #expect(answered.status == 200)
        #expect(answered.text.contains("LANGUAGE=\"en\""), "\(answered.text)")
        #expect(answered.text.contains("#EXT-X-STREAM-INF"))
        child.terminate()
        #expect(try await child.waitForExit(timeout: .seconds(15)) == 0)
        await origin.stop()
    }

    @Test func aReloadDropsRewrittenMastersCachedUnderTheOldConfig() async throws {
        let origin = try FixtureOrigin()
        let scratch = try Scratch()
        defer { scratch.remove() }
        func config(language: String) -> String {
            #"""
            { "mounts": { "o": { "origin": "\#(origin.baseURL)" } }, "cache": { "master_ttl_seconds": 3600 },
              "subtitles": [ { "name": "s", "masters": ["/o/vod-ts/master.m3u8"],
                "tracks": [ { "id": "t", "name": "Track", "language": "\#(language)", "source": "\#(origin.baseURL)/subtitles/en.vtt" } ] } ] }
            """#
        }
        try scratch.writeConfig(config(language: "en"))
        let (child, port) = try await Self.start(["--config", scratch.configPath, "--port", "0"])
        #expect(try await TestClient.get(port: port, "/o/vod-ts/master.m3u8").text.contains("LANGUAGE=\"en\""))
        #expect(try await TestClient.get(port: port, "/o/vod-ts/master.m3u8").text.contains("LANGUAGE=\"en\""))
        #expect(origin.hits("/vod-ts/master.m3u8") == 1, "the second answer came from the cache")

        try scratch.writeConfig(config(language: "de"))
        try await Self.reload(child, expectingLines: 1)
        #expect(Self.reloadLines(child).first?.contains("subtitles ~s") == true)
        let after = try await TestClient.get(port: port, "/o/vod-ts/master.m3u8")
        #expect(after.text.contains("LANGUAGE=\"de\""), "\(after.text)")
        child.terminate()
        #expect(try await child.waitForExit(timeout: .seconds(15)) == 0)
        await origin.stop()
    }

    @Test func sighupWithoutAConfigFileIsLoggedAndDoesNotStopTheServer() async throws {
        let (child, port) = try await Self.start(["--port", "0"])
        child.hangUp()
        #expect(try await child.waitForError(containing: "nothing to reload") != nil)
        #expect(child.isRunning)
        #expect(try await TestClient.get(port: port, "/healthz").status == 200)
        child.terminate()
        #expect(try await child.waitForExit(timeout: .seconds(15)) == 0)
    }
}
