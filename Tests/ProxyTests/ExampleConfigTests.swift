import Foundation
import HTTPServer
import HTTPWire
@testable import Proxy
import TestSupport
import Testing

/// config.example.json, the real file at the repository root, answers as README's catalog sections
/// say: the templated set with its absent optional track, the `tracks_url` set (its own backend on the
/// configured port, its static track when that is not there), a URL signed with the example key, and
/// the loud warning about that key. All offline, with no environment variable set.
@Suite(.timeLimit(.minutes(1))) struct ExampleConfigTests {
    static let path = RealPlayerTests.repositoryRoot + "/config.example.json"

    /// The example as it is on disk, or with its text edited (the backend's port), read against the
    /// repository root as the file itself is.
    static func config(_ edit: (String) -> String = { $0 }) throws -> ProxyConfig {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try ProxyConfig.decode(Array(edit(text).utf8), environment: [:], baseDirectory: RealPlayerTests.repositoryRoot)
    }

    /// Runs `body` against a proxy started on `config` (on port 0 unless `config` names one), logs kept.
    static func withService(_ config: ProxyConfig, port: Int = 0, _ body: (Int, LockedBox<[String]>) async throws -> Void) async throws {
        var config = config
        config.listen.port = port
        let lines = LockedBox<[String]>([])
        let logger = ProxyLogger(level: .info, accessSink: { _ in }, diagnosticSink: { line in lines.withLock { $0.append(line) } })
        let service = ProxyService(config: config, logger: logger)
        try service.start()
        do {
            try await body(service.port, lines)
        } catch {
            await service.stop()
            throw error
        }
        await service.stop()
    }

    /// The LANGUAGE of each subtitle rendition, in order.
    static func languages(_ master: RawResponse) -> [String] {
        subtitleRenditions(master).compactMap { line in
            line.firstRange(of: #"LANGUAGE=""#).map { String(line[$0.upperBound...].prefix { $0 != "\"" }) }
        }
    }

    @Test func theFileLoadsWithNoEnvironmentAndKeepsTheSampleSetAsItWas() throws {
        let config = try ProxyConfig.load(contentsOf: Self.path, environment: [:])
        #expect(config.subtitleSets.map(\.name) == ["sample", "catalog", "backend"])
        // .ci/run plays /sample/master.m3u8 expecting en, fr, es: that set is untouched.
        #expect(config.subtitleSets.first?.tracks.map(\.id) == ["en", "fr", "es"])
        #expect(config.signing.keys == ["k1": ProxyConfig.Signing.publishedExampleKey])
    }

    /// Scripts copy the example elsewhere with only the sample mount's directory made absolute: every
    /// form lives under that one mount (Examples/sample-vod/catalog), so such a copy still loads.
    @Test func aCopyWithOnlyTheSampleMountMadeAbsoluteStillLoads() throws {
        let absolute = RealPlayerTests.repositoryRoot + "/Examples/sample-vod"
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
            .replacingOccurrences(of: #""origin": "Examples/sample-vod""#, with: "\"origin\": \"\(absolute)\"")
        let config = try ProxyConfig.decode(Array(text.utf8), environment: [:], baseDirectory: FileManager.default.temporaryDirectory.path)
        #expect(config.mounts.count == 1)
        #expect(config.subtitleSets.count == 3)
    }

    @Test func theTemplatedSetListsTheSamplesTracksAndLeavesOutItsAbsentOptionalOne() async throws {
        try await Self.withService(try Self.config()) { port, _ in
            let master = try await TestClient.get(port: port, "/sample/catalog/lecture/master.m3u8")
            #expect(master.status == 200)
            #expect(master.text.contains("#EXT-X-STREAM-INF"))
            // German is optional and Examples/sample-vod/catalog/lecture/subs/de.vtt does not exist.
            #expect(Self.languages(master) == ["en", "fr"])
            // {asset} filled in from the path: English is the sample's own en.vtt (catalog/lecture/subs links to it).
            let english = try #require(subtitleRenditions(master).first.flatMap(renditionURI))
            let playlist = try await TestClient.get(port: port, english)
            #expect(playlist.status == 200)
            let segment = try #require(playlist.text.split(separator: "\n").first { $0.hasSuffix(".vtt") })
            // Segment URIs are relative to their playlist.
            let directory = english[..<(english.lastIndex(of: "/") ?? english.startIndex)]
            let vtt = try await TestClient.get(port: port, "\(directory)/\(segment)")
            #expect(vtt.status == 200)
            let source = try String(contentsOfFile: RealPlayerTests.repositoryRoot + "/Examples/sample-vod/subs/en.vtt", encoding: .utf8)
            let firstCue = try #require(source.split(separator: "\n").first { !$0.contains("-->") && !$0.hasPrefix("WEBVTT") && !$0.isEmpty })
            #expect(vtt.text.contains(firstCue), "\(vtt.text)")
            // The per-request choices apply to it as the README shows.
            let chosen = try await TestClient.get(port: port, "/sample/catalog/lecture/master.m3u8?hls_proxy_subtitles=fr&hls_proxy_default=fr")
            #expect(Self.languages(chosen) == ["fr"])
            #expect(subtitleRenditions(chosen).first?.contains("DEFAULT=YES") == true)
        }
    }

    @Test func theBackendSetListsWhatItsTracksFileSaysWhenTheProxyRunsOnTheConfiguredPort() async throws {
        // The example is its own backend on the port it configures (8080): run it on a free port with
        // the URL following, as running it on 8080 would.
        let port = try LoopbackPort.free()
        let config = try Self.config { $0.replacingOccurrences(of: "http://127.0.0.1:8080/sample/catalog/", with: "http://127.0.0.1:\(port)/sample/catalog/") }
        #expect(config.subtitleSets.last?.tracksURL == "http://127.0.0.1:\(port)/sample/catalog/{asset}/tracks.json")
        try await Self.withService(config, port: port) { port, lines in
            let master = try await TestClient.get(port: port, "/sample/backend/lecture/master.m3u8")
            #expect(master.status == 200)
            #expect(Self.languages(master) == ["en", "fr", "es"])
            #expect(!lines.withLock { $0 }.contains { $0.contains("tracks backend failed") })
        }
    }

    @Test func theBackendSetsSourcesServeCuesWhenTheProxyRunsOnTheConfiguredPort() async throws {
        // The backend's sources are absolute (a backend may not name files), on the configured port: a
        // copy of the sample with its tracks file following a free port plays as the example does on 8080.
        let port = try LoopbackPort.free()
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("example-backend-\(port)").path
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: RealPlayerTests.repositoryRoot + "/Examples/sample-vod", toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let tracksFile = copy + "/catalog/lecture/tracks.json"
        let tracks = try String(contentsOfFile: tracksFile, encoding: .utf8)
        #expect(tracks.contains("http://127.0.0.1:8080/sample/subs/fr.vtt"))
        try tracks.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)").write(toFile: tracksFile, atomically: true, encoding: .utf8)
        let config = try Self.config {
            $0.replacingOccurrences(of: "http://127.0.0.1:8080/sample/catalog/", with: "http://127.0.0.1:\(port)/sample/catalog/")
                .replacingOccurrences(of: #""origin": "Examples/sample-vod""#, with: "\"origin\": \"\(copy)\"")
        }
        try await Self.withService(config, port: port) { port, _ in
            let master = try await TestClient.get(port: port, "/sample/backend/lecture/master.m3u8")
            #expect(Self.languages(master) == ["en", "fr", "es"])
            let segment = SubtitleURL(setName: "backend", trackID: "fr", masterTarget: "/sample/backend/lecture/master.m3u8", resource: .segment(0))
            let cues = try await TestClient.get(port: port, segment.path)
            #expect(cues.status == 200)
            #expect(cues.text.contains("00:00:00.500 --> 00:00:02.500"), "\(cues.text)")
            #expect(cues.text.contains("Une mire de test apparaît."))
        }
    }

    @Test func theBackendSetFallsBackToItsStaticTrackWhenNothingAnswersOnThatPort() async throws {
        let config = try Self.config {
            $0.replacingOccurrences(of: "http://127.0.0.1:8080/sample/catalog/", with: "http://127.0.0.1:\(LoopbackPort.refusing)/sample/catalog/")
        }
        try await Self.withService(config) { port, lines in
            let master = try await TestClient.get(port: port, "/sample/backend/lecture/master.m3u8")
            #expect(master.status == 200)
            #expect(Self.languages(master) == ["en"])
            #expect(lines.withLock { $0 }.contains { $0.contains("tracks backend failed") && $0.contains(#""reason":"unreachable""#) })
            let metrics = try await TestClient.get(port: port, "/metrics")
            #expect(metrics.text.contains(#"hls_proxy_tracks_backend_failures_total{reason="unreachable"} 1"#))
        }
    }

    @Test func aURLSignedWithTheExampleKeyPlaysTheSampleMasterWithItsTracks() async throws {
        let config = try Self.config()
        let tracks = #"[{"language": "en", "name": "English", "source": "subs/en.vtt", "default": true}, {"language": "es", "name": "Español", "source": "subs/es.srt"}]"#
        let request = CommandLineOptions.SignRequest(master: "/sample/master.m3u8", tracks: "-")
        let path = try SignCommand.playbackPath(request, tracksJSON: Array(tracks.utf8), config: config, now: WallClockTime.currentSecond()).get()
        #expect(path.hasPrefix("/_hls-proxy/v1/signed/k1."))
        try await Self.withService(config) { port, _ in
            let master = try await TestClient.get(port: port, path)
            #expect(master.status == 200, "\(master.text)")
            #expect(Self.languages(master) == ["en", "es"])
            // Variants stay at the master's own path; the subtitles answer under the token.
            #expect(master.text.contains("/sample/v0/index.m3u8"), "\(master.text)")
            let english = try #require(subtitleRenditions(master).first.flatMap(renditionURI))
            #expect(english.hasPrefix(String(path.dropLast("master.m3u8".count))))
            #expect(try await TestClient.get(port: port, english).status == 200)
        }
    }

    @Test func theExampleKeyIsWarnedAboutAtStartAndByCheckConfigWhichStillPasses() async throws {
        let service = ProxyService(config: try Self.config(), logger: .silent)
        let warning = try #require(service.startupWarnings.first { $0.hasPrefix("signing.keys.k1: is the published example key") })
        #expect(warning.contains("never deploy it"))
        // The same key as docs/signing.md's worked example, so a signer can be checked against the example.
        let doc = try String(contentsOfFile: RealPlayerTests.repositoryRoot + "/docs/signing.md", encoding: .utf8)
        #expect(doc.contains(ProxyConfig.Signing.publishedExampleKey))
        let result = try await RunningProcess.run(["--check-config", "--config", Self.path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("test is successful"))
        #expect(result.err.contains("warning: signing.keys.k1: is the published example key"), "\(result.err)")
        // A key of its own is not warned about.
        let own = try Self.config { $0.replacingOccurrences(of: ProxyConfig.Signing.publishedExampleKey, with: String(repeating: "x", count: 40)) }
        #expect(own.signing.publishedExampleKeyWarnings.isEmpty)
    }

    // MARK: The example key off loopback

    /// A URL for the sample master signed with the example key.
    static func exampleSignedPath(_ config: ProxyConfig) throws -> String {
        let tracks = #"[{"language": "en", "name": "English", "source": "subs/en.vtt", "default": true}]"#
        let request = CommandLineOptions.SignRequest(master: "/sample/master.m3u8", tracks: "-")
        return try SignCommand.playbackPath(request, tracksJSON: Array(tracks.utf8), config: config, now: WallClockTime.currentSecond()).get()
    }

    @Test func onANonLoopbackListenerTheExampleKeyIsDroppedWithAnErrorLineAndItsURLsAnswer403() async throws {
        var config = try Self.config()
        let path = try Self.exampleSignedPath(config)
        config.listen.host = "0.0.0.0"
        try await Self.withService(config) { port, lines in
            let signed = try await TestClient.get(port: port, path)
            #expect(signed.status == 403)
            #expect(lines.withLock { $0 }.contains {
                $0.contains(#""level":"error""#) && $0.contains("signing.keys.k1: is the published example key") && $0.contains("HLS_PROXY_SIGNING_KEY")
            })
            // The unsigned sample plays as before (the Docker image serves it).
            let sample = try await TestClient.get(port: port, "/sample/master.m3u8")
            #expect(Self.languages(sample) == ["en", "fr", "es"])
        }
    }

    @Test(arguments: ["127.0.0.1", "127.8.9.10", "::1", "localhost"])
    func onALoopbackListenerTheExampleKeyIsKept(host: String) throws {
        var config = try Self.config()
        config.listen.host = host
        let confined = config.confiningPublishedExampleKey()
        #expect(confined.errors.isEmpty)
        #expect(confined.config.signing.keys == ["k1": ProxyConfig.Signing.publishedExampleKey])
    }

    @Test(arguments: ["0.0.0.0", "::", "192.168.1.4", "127.0.0.1.example", "proxy.internal"])
    func offLoopbackOnlyThePublishedKeyIsDroppedAndARealKeyIsKept(host: String) throws {
        let real = String(repeating: "r", count: 40)
        var config = try Self.config { $0.replacingOccurrences(of: #""k1": "example"#, with: #""k2": "\#(real)", "k1": "example"#) }
        config.listen.host = host
        let confined = config.confiningPublishedExampleKey()
        #expect(confined.config.signing.keys == ["k2": real])
        #expect(confined.errors.count == 1)
    }

    @Test func checkConfigWithANonLoopbackHostSaysTheExampleKeyIsDropped() async throws {
        let result = try await RunningProcess.run(["--check-config", "--config", Self.path, "--host", "0.0.0.0"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("error: signing.keys.k1: is the published example key"), "\(result.err)")
        #expect(result.err.contains("the key is dropped"), "\(result.err)")
    }
}
