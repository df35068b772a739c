import Foundation
@testable import Proxy
import TestSupport
import Testing

/// `hls-subtitle-proxy rewrite` through the built binary: it lists the tracks the server would for the
/// same master path (captures, optional tracks, choices), asks no origin unless `--network`, and each
/// usage mistake exits 2 with one line.
@Suite(.timeLimit(.minutes(1))) struct RewriteCommandLineTests {
    static let root = RealPlayerTests.repositoryRoot
    static let sampleMaster = root + "/Examples/sample-vod/master.m3u8"
    static let lectureMaster = root + "/Examples/sample-vod/catalog/lecture/master.m3u8"

    /// The master a running proxy on config.example.json serves at `target`.
    static func served(_ target: String) async throws -> String {
        var config = try ProxyConfig.load(contentsOf: root + "/config.example.json", environment: [:])
        config.listen.port = 0
        let service = ProxyService(config: config, logger: .silent)
        try service.start()
        let response = try await TestClient.get(port: service.port, target)
        await service.stop()
        #expect(response.status == 200)
        return response.text
    }

    static func rewrite(_ arguments: [String], config: String = "config.example.json", input: String = sampleMaster) async throws
        -> (status: Int32?, out: String, err: String)
    {
        try await RunningProcess.run(["rewrite", "--config", config] + arguments + [input], currentDirectory: root)
    }

    /// The LANGUAGE of each subtitle rendition, in order.
    static func languages(_ master: String) -> [String] {
        master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }.compactMap { line in
            line.firstRange(of: #"LANGUAGE=""#).map { String(line[$0.upperBound...].prefix { $0 != "\"" }) }
        }
    }

    /// Writes a config file in a fresh temporary directory and returns its path.
    static func configFile(_ json: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewrite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("config.json")
        try Data(json.utf8).write(to: url)
        return url.path
    }

    // MARK: Templates and optional file tracks

    @Test func aTemplatedMasterGetsItsCapturesAndLosesItsAbsentOptionalTrackAsTheServerServesIt() async throws {
        let result = try await Self.rewrite(["--path", "/sample/catalog/lecture/master.m3u8"], input: Self.lectureMaster)
        #expect(result.status == 0, "\(result.err)")
        #expect(Self.languages(result.out) == ["en", "fr"])
        #expect(result.out == (try await Self.served("/sample/catalog/lecture/master.m3u8")))
        // The optional German track was probed on disk, not skipped: no warning about it.
        #expect(result.err.isEmpty, "\(result.err)")
        // --url and --path name the same request target.
        let byURL = try await Self.rewrite(["--url", "http://127.0.0.1:8080/sample/catalog/lecture/master.m3u8"], input: Self.lectureMaster)
        #expect(byURL.out == result.out)
    }

    @Test func anOptionalFileTrackWhoseSourceExistsIsListedAndATemplatedNameIsFilledIn() async throws {
        let config = try Self.configFile("""
            { "mounts": { "catalog": { "origin": "\(Self.root)/Examples" } },
              "subtitles": [ { "name": "c", "masters": ["/catalog/{asset}/master.m3u8"], "tracks": [
                { "id": "en", "name": "English ({asset})", "language": "en", "source": "/{asset}/subs/en.vtt" },
                { "id": "es", "name": "Español", "language": "es", "optional": true, "source": "/{asset}/subs/es.srt" },
                { "id": "de", "name": "Deutsch", "language": "de", "optional": true, "source": "/{asset}/subs/de.vtt" } ] } ] }
            """)
        let result = try await Self.rewrite(["--path", "/catalog/sample-vod/master.m3u8"], config: config)
        #expect(result.status == 0, "\(result.err)")
        #expect(Self.languages(result.out) == ["en", "es"])
        #expect(result.out.contains(#"NAME="English (sample-vod)""#), "\(result.out)")
    }

    // MARK: Choices

    @Test func choicesByFlagOrByQueryGiveTheMasterTheServerServesForThem() async throws {
        let target = "/sample/catalog/lecture/master.m3u8?hls_proxy_subtitles=fr,en&hls_proxy_default=fr"
        let served = try await Self.served(target)
        #expect(Self.languages(served) == ["en", "fr"])
        let byQuery = try await Self.rewrite(["--path", target], input: Self.lectureMaster)
        #expect(byQuery.status == 0, "\(byQuery.err)")
        #expect(byQuery.out == served)
        let byFlags = try await Self.rewrite(["--path", "/sample/catalog/lecture/master.m3u8", "--subtitles", "fr,en", "--default", "fr"],
                                             input: Self.lectureMaster)
        #expect(byFlags.out == served)
        let french = try #require(byFlags.out.split(separator: "\n").first { $0.contains(#"LANGUAGE="fr""#) })
        #expect(french.contains("DEFAULT=YES"))
        #expect(!byFlags.out.split(separator: "\n").contains { $0.contains(#"LANGUAGE="en""#) && $0.contains("DEFAULT=YES") })
        // The flags replace the query's own choices.
        let replaced = try await Self.rewrite(["--path", "/sample/master.m3u8?hls_proxy_subtitles=en", "--subtitles", "es"])
        #expect(Self.languages(replaced.out) == ["es"])
        #expect(replaced.out == (try await Self.served("/sample/master.m3u8?hls_proxy_subtitles=es")))
        // Each flag replaces its own parameter only; the URL's other parameters stay, in order.
        let kept = try await Self.rewrite(["--path", "/sample/master.m3u8?x=1&hls_proxy_subtitles=en,es", "--default", "es"])
        #expect(Self.languages(kept.out) == ["en", "es"])
        #expect(kept.out == (try await Self.served("/sample/master.m3u8?x=1&hls_proxy_subtitles=en,es&hls_proxy_default=es")))
    }

    // MARK: http sources and tracks_url: offline unless --network

    @Test func anOptionalHTTPTrackIsLeftOutWithAWarningOfflineAndProbedWithNetwork() async throws {
        let origin = try TestOrigin(routes: ["/subs/lecture/de.vtt": .raw(TestOrigin.response(status: 200, body: []))])
        defer { origin.stop() }
        let config = try Self.configFile("""
            { "mounts": { "vod": { "origin": "\(origin.url("/vod"))" } },
              "subtitles": [ { "name": "c", "masters": ["/vod/{asset}/master.m3u8"], "tracks": [
                { "id": "en", "name": "English", "language": "en", "source": "en.vtt" },
                { "id": "de", "name": "Deutsch", "language": "de", "optional": true, "source": "\(origin.url("/subs/{asset}/de.vtt"))" } ] } ] }
            """)
        let offline = try await Self.rewrite(["--path", "/vod/lecture/master.m3u8"], config: config)
        #expect(offline.status == 0, "\(offline.err)")
        #expect(Self.languages(offline.out) == ["en"])
        #expect(offline.err.contains("optional track left out: its source is not a file"), "\(offline.err)")
        #expect(offline.err.contains(#""track":"de""#), "\(offline.err)")
        #expect(origin.requests().isEmpty)
        let online = try await Self.rewrite(["--path", "/vod/lecture/master.m3u8", "--network"], config: config)
        #expect(online.status == 0, "\(online.err)")
        #expect(Self.languages(online.out) == ["en", "de"])
        #expect(origin.requests(path: "/subs/lecture/de.vtt").map(\.method) == ["HEAD"])
    }

    @Test func aTracksURLSetListsItsStaticTracksOfflineAndTheBackendsWithNetwork() async throws {
        let backend = try TestOrigin(routes: [
            "/api/lecture": .computed {
                TestOrigin.response(status: 200, headers: [("Content-Type", "application/json")], body: Array(
                    #"{"tracks": [{"id": "fr", "name": "Français", "language": "fr", "source": "http://127.0.0.1/subs/fr.vtt"}]}"#.utf8))
            },
        ])
        defer { backend.stop() }
        let config = try Self.configFile("""
            { "mounts": { "vod": { "origin": "http://127.0.0.1:9/vod" } },
              "subtitles": [ { "name": "c", "masters": ["/vod/{asset}/master.m3u8"], "tracks_url": "\(backend.url("/api/{asset}"))",
                "source_hosts": ["127.0.0.1"],
                "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "en.vtt" } ] } ] }
            """)
        let offline = try await Self.rewrite(["--path", "/vod/lecture/master.m3u8"], config: config)
        #expect(offline.status == 0, "\(offline.err)")
        #expect(Self.languages(offline.out) == ["en"])
        #expect(offline.err.contains("tracks_url not asked offline"), "\(offline.err)")
        #expect(backend.requests().isEmpty)
        let online = try await Self.rewrite(["--path", "/vod/lecture/master.m3u8", "--network"], config: config)
        #expect(online.status == 0, "\(online.err)")
        #expect(Self.languages(online.out) == ["fr"])
        #expect(backend.requests(path: "/api/lecture").count == 1)
    }

    // MARK: Usage errors

    @Test(arguments: [
        ["rewrite", "--config", "c.json", "m.m3u8"],
        ["rewrite", "--path", "/sample/master.m3u8", "m.m3u8"],
        ["rewrite", "--config", "c.json", "--url", "http://h/m.m3u8", "--path", "/m.m3u8"],
        ["rewrite", "--config", "c.json", "--url", "ftp://h/m.m3u8"],
        ["rewrite", "--config", "c.json", "--url", "/sample/master.m3u8"],
        ["rewrite", "--config", "c.json", "--path", "sample/master.m3u8"],
        ["rewrite", "--config", "c.json", "--path", "//evil/master.m3u8"],
        ["rewrite", "--config", "c.json", "--path", "/a b.m3u8"],
        ["rewrite", "--config", "c.json", "--path", "/m.m3u8", "--subtitles", "en,,fr"],
        ["rewrite", "--config", "c.json", "--path", "/m.m3u8", "--subtitles", "en&x=1"],
        ["rewrite", "--config", "c.json", "--path", "/m.m3u8", "--default", ""],
        ["rewrite", "--config", "c.json", "--path", "/m.m3u8", "--default", "f r"],
        ["rewrite", "--config", "c.json", "--path", "/m.m3u8", "--network=yes"],
        ["rewrite", "--config", "c.json", "--path", "/m.m3u8", "--bogus"],
        ["rewrite", "--config", "c.json", "--path", "/m.m3u8", "a.m3u8", "b.m3u8"],
        ["rewrite", "--config", "c.json", "--path"],
        ["--path", "/m.m3u8"],
        ["--network"],
    ])
    func usageErrorsExit2WithOneLine(arguments: [String]) async throws {
        let result = try await RunningProcess.run(arguments)
        #expect(result.status == 2, "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1, "\(result.err)")
        #expect(result.out.isEmpty)
    }

    @Test func helpDescribesRewritesOptions() async throws {
        let result = try await RunningProcess.run(["rewrite", "--help"])
        #expect(result.status == 0)
        for word in ["rewrite --config PATH (--url MASTER_URL | --path MASTER_PATH)", "--subtitles en,fr", "--default fr", "--network",
                     "optional tracks", "tracks_url"] {
            #expect(result.out.contains(word), "--help does not mention \(word)")
        }
    }
}
