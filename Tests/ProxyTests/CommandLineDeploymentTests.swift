import Foundation
@testable import Proxy
import Testing

/// The executable as a container or a pod starts it: environment from the image and from Kubernetes,
/// which config file it loaded (or that none was given), where the listen address came from, and
/// the one version every output names.
@Suite struct CommandLineDeploymentTests {
    static let root = RealPlayerTests.repositoryRoot

    /// A config file in a fresh temporary directory; removed by the returned closure.
    static func configFile(_ json: String) throws -> (path: String, remove: @Sendable () -> Void) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deploy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("proxy.json")
        try Data(json.utf8).write(to: file)
        return (file.path, { try? FileManager.default.removeItem(at: directory) })
    }

    /// Starts the executable, waits for its listening line, stops it with SIGTERM, returns its stderr.
    static func startAndStop(_ arguments: [String], environment: [String: String] = [:]) async throws -> String {
        let child = try RunningProcess(arguments, environment: environment, currentDirectory: root)
        let started = try await child.waitForError(containing: "listening on http://")
        child.terminate()
        let status = try await child.waitForExit(timeout: .seconds(15))
        #expect(started != nil, "it did not start: \(child.standardError)")
        #expect(status == 0)
        return child.standardError
    }

    /// The diagnostic lines whose message contains `text`.
    static func lines(_ log: String, containing text: String) -> [Substring] {
        log.split(separator: "\n").filter { $0.contains(text) }
    }

    // MARK: Kubernetes service links (HLS_PROXY_PORT=tcp://...)

    @Test func aKubernetesServiceLinkInHLSProxyPortIsIgnoredWithAWarningAndTheProxyStarts() async throws {
        let config = try Self.configFile(#"{ "listen": { "host": "127.0.0.1", "port": 0 } }"#)
        defer { config.remove() }
        let log = try await Self.startAndStop(["--config", config.path], environment: ["HLS_PROXY_PORT": "tcp://10.0.0.11:8080"])
        let warning = try #require(Self.lines(log, containing: "ignoring HLS_PROXY_PORT").first, "\(log)")
        #expect(warning.contains(#""level":"warn""#))
        #expect(warning.contains("tcp://10.0.0.11:8080"))
        #expect(warning.contains("a Service named hls-proxy"))
        #expect(warning.contains("enableServiceLinks: false"))
        #expect(Self.lines(log, containing: "listening on http://127.0.0.1:").first?.contains("port from config file") == true, "\(log)")
    }

    @Test func aPlainBadPortInTheEnvironmentStillStopsStartUpNamingTheVariable() async throws {
        let result = try await RunningProcess.run([], environment: ["HLS_PROXY_PORT": "eighty"])
        #expect(result.status == 2)
        #expect(result.err == "hls-subtitle-proxy: HLS_PROXY_PORT: \"eighty\" is not a port number (0-65535)\n")
    }

    @Test(arguments: ["tcp://10.0.0.11:8080", "udp://10.0.0.11:53", "sctp://10.0.0.11:9", "TCP://10.0.0.11:8080"])
    func serviceLinkShapedPortValuesAreSetAsideAsWarnings(value: String) throws {
        let options = try CommandLineOptions.parse([], environment: ["HLS_PROXY_PORT": value])
        #expect(options.port == nil)
        #expect(options.portSource == nil)
        #expect(options.warnings.count == 1)
        #expect(options.warnings.first?.hasPrefix("ignoring HLS_PROXY_PORT=") == true)
    }

    @Test func aServiceLinkInHLSProxyPortLeavesPORTToTheNextInLine() throws {
        let options = try CommandLineOptions.parse([], environment: ["HLS_PROXY_PORT": "tcp://10.0.0.11:8080", "PORT": "9090"])
        #expect(options.port == 9090)
        #expect(options.portSource == .environment("PORT"))
    }

    @Test func aPortFlagIsNotDisturbedByAServiceLinkAndNothingIsWarned() throws {
        let options = try CommandLineOptions.parse(["--port", "0"], environment: ["HLS_PROXY_PORT": "tcp://10.0.0.11:8080"])
        #expect(options.port == 0)
        #expect(options.portSource == .flag("--port"))
        #expect(options.warnings.isEmpty)
    }

    // MARK: Where the listen address came from (flags > environment > file > defaults)

    @Test func theStartUpLineSaysTheEnvironmentOverrodeTheConfigFilesHost() async throws {
        // The image's case: HLS_PROXY_HOST beats the mounted file's listen.host.
        let config = try Self.configFile(#"{ "listen": { "host": "127.0.0.2", "port": 0 } }"#)
        defer { config.remove() }
        let log = try await Self.startAndStop(["--config", config.path], environment: ["HLS_PROXY_HOST": "127.0.0.1"])
        let line = try #require(Self.lines(log, containing: "listening on http://").first)
        #expect(line.contains("listening on http://127.0.0.1:"), "\(line)")
        #expect(line.contains("(host from HLS_PROXY_HOST, port from config file; the config file's host 127.0.0.2 overridden)"), "\(line)")
        #expect(line.contains(#""host_from":"HLS_PROXY_HOST""#))
        #expect(line.contains(#""port_from":"config file""#))
    }

    @Test func theStartUpLineSaysAFlagBeatTheEnvironmentAndTheDefaultFilledTheRest() async throws {
        let config = try Self.configFile(#"{ "mounts": { "m": { "origin": "." } } }"#)
        defer { config.remove() }
        let log = try await Self.startAndStop(["--config", config.path, "--port", "0", "--threads", "2"],
                                              environment: ["HLS_PROXY_PORT": "9"])
        let line = try #require(Self.lines(log, containing: "listening on http://").first)
        #expect(line.contains("(host from built-in default, port from --port; 2 event loop threads from --threads)"), "\(line)")
    }

    @Test func listenSourcesNameTheFileOnlyForTheKeysItSet() throws {
        var config = try ProxyConfig.decode(Array(#"{ "listen": { "port": 9000, "host": null } }"#.utf8), environment: [:])
        let options = try CommandLineOptions.parse([], environment: ["HLS_PROXY_PORT": "8080"])
        let sources = ListenSources(applying: options, to: &config)
        #expect(sources.host == .builtInDefault)
        #expect(sources.port == .environment("HLS_PROXY_PORT"))
        #expect(sources.overridden == ["port 9000"])
        #expect(config.listen.port == 8080)
        #expect(sources.summary(threadCount: 1) == "host from built-in default, port from HLS_PROXY_PORT; the config file's port 9000 overridden")
    }

    // MARK: Which config file, or none

    @Test func startUpNamesTheConfigFileItLoaded() async throws {
        let log = try await Self.startAndStop(["--config", "config.example.json", "--port", "0"])
        let line = try #require(Self.lines(log, containing: "loaded configuration file").first, "\(log)")
        #expect(line.contains("loaded configuration file \(Self.root)/config.example.json"))
        #expect(Self.lines(log, containing: "no configuration file given").isEmpty)
        #expect(Self.lines(log, containing: "nothing is mounted").isEmpty)
    }

    @Test func startingWithoutAConfigFileWarnsThatNoneWasGivenAndNothingIsMounted() async throws {
        let log = try await Self.startAndStop(["--port", "0"])
        let none = try #require(Self.lines(log, containing: "no configuration file given").first, "\(log)")
        #expect(none.contains(#""level":"warn""#))
        #expect(none.contains("--config PATH or HLS_PROXY_CONFIG"))
        let empty = try #require(Self.lines(log, containing: "nothing is mounted").first, "\(log)")
        #expect(empty.contains(#""level":"warn""#))
        #expect(empty.contains("answers 404"))
    }

    @Test func aConfigFileThatMountsNothingIsWarnedAbout() async throws {
        let config = try Self.configFile(#"{ "listen": { "port": 0 } }"#)
        defer { config.remove() }
        let log = try await Self.startAndStop(["--config", config.path])
        #expect(Self.lines(log, containing: "loaded configuration file \(config.path)").count == 1, "\(log)")
        #expect(Self.lines(log, containing: "nothing is mounted").count == 1, "\(log)")
    }

    @Test func checkConfigNamesTheFileItTestedAndWhatItWouldRun() async throws {
        let result = try await RunningProcess.run(["--check-config", "--config", "config.example.json"], currentDirectory: Self.root)
        #expect(result.status == 0)
        let lines = result.out.split(separator: "\n")
        #expect(lines.first == "configuration file \(Self.root)/config.example.json test is successful"[...])
        #expect(lines.dropFirst().first == "it would listen on 127.0.0.1:8080 (host from config file, port from config file) with 1 mount(s) and 3 subtitle set(s)"[...])
        #expect(lines.last?.hasPrefix("origin exchanges: at most ") == true, "\(result.out)")
    }

    @Test func checkConfigWithoutAConfigFileSaysNoneWasGivenAndFails() async throws {
        let result = try await RunningProcess.run(["--check-config"])
        #expect(result.status == 1)
        #expect(!result.out.contains("OK"), "\(result.out)")
        #expect(!result.out.contains("successful"), "\(result.out)")
        #expect(result.err.contains("no configuration file given (--config PATH or HLS_PROXY_CONFIG): nothing to test"))
        #expect(result.err.contains("without one it would listen on 127.0.0.1:8080 (host from built-in default, port from built-in default)"))
        #expect(result.err.contains("every request but /healthz, /readyz and /metrics would answer 404"))
    }

    @Test func checkConfigReadsTheConfigFileFromTheEnvironmentAndNamesIt() async throws {
        let config = try Self.configFile(#"{ "mounts": { "m": { "origin": "." } } }"#)
        defer { config.remove() }
        let result = try await RunningProcess.run(["--check-config"], environment: ["HLS_PROXY_CONFIG": config.path])
        #expect(result.status == 0)
        #expect(result.out.hasPrefix("configuration file \(config.path) test is successful\n"))
    }

    // MARK: One version

    @Test func versionPrintsTheOneDefinedVersion() async throws {
        let result = try await RunningProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.out == "hls-subtitle-proxy \(ProxyVersion.number)\n")
        #expect(CommandLineOptions.version == ProxyVersion.number)
        #expect(CommandLineOptions.helpText.hasPrefix("hls-subtitle-proxy \(ProxyVersion.number): "))
        #expect(OriginClient.Configuration().userAgent == "hls-subtitle-proxy/\(ProxyVersion.number)")
    }

    @Test func theChangelogAndTheKubernetesExampleNameTheVersion() throws {
        let changelog = try String(contentsOfFile: Self.root + "/CHANGELOG.md", encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") && !$0.contains("Unreleased") }
        #expect(newest?.hasPrefix("## \(ProxyVersion.number)") == true, "CHANGELOG.md's newest release is \(newest ?? "missing")")
        let pod = try String(contentsOfFile: Self.root + "/deploy/kubernetes-sidecar.yaml", encoding: .utf8)
        #expect(pod.contains("hls-subtitle-proxy:\(ProxyVersion.number) "), "the example's image tag is not the version")
    }

    @Test func theLicenseIsTheApacheLicense() throws {
        let license = try String(contentsOfFile: Self.root + "/LICENSE", encoding: .utf8)
        #expect(license.contains("Apache License"))
        #expect(license.contains("Version 2.0, January 2004"))
        #expect(license.contains("END OF TERMS AND CONDITIONS"))
    }
}
