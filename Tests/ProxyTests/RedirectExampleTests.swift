import Foundation
import TestSupport
import Testing

/// The second bundled example, Examples/redirect-origin: the sample served as an http origin by the same
/// process, so the redirect path can be seen offline. Run as shipped (`--check-config`) and on a free port.
@Suite struct RedirectExampleTests {
    static let root = RealPlayerTests.repositoryRoot
    static let configPath = root + "/Examples/redirect-origin/config.json"

    @Test func theRedirectExampleConfigPassesCheckConfig() async throws {
        let result = try await RunningProcess.run(["--check-config", "--config", Self.configPath])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains("test is successful"), "\(result.out)")
        #expect(result.out.contains("2 mount(s) and 1 subtitle set(s)"), "\(result.out)")
    }

    @Test func theRedirectExampleRewritesTheMasterFromItsHttpOriginAndRedirectsTheRest() async throws {
        // The example names its own address (127.0.0.1:8080) as the origin: both move to a free port, and
        // the copy, which lives elsewhere, names the sample directory by its absolute path.
        let port = try LoopbackPort.free()
        let shipped = try String(contentsOfFile: Self.configPath, encoding: .utf8)
        #expect(shipped.contains("\"origin\": \"http://127.0.0.1:8080/files/\""))
        let copy = shipped
            .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
            .replacingOccurrences(of: "\"port\": 8080", with: "\"port\": \(port)")
            .replacingOccurrences(of: "\"../sample-vod\"", with: "\"\(Self.root)/Examples/sample-vod\"")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("redirect-\(UUID().uuidString).json").path
        try Data(copy.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let child = try RunningProcess(["--config", path])
        defer { child.terminate() }
        #expect(try await child.waitForError(containing: "listening on http://") != nil, "\(child.standardError)")

        let master = try await TestClient.get(port: port, "/origin/master.m3u8")
        #expect(master.status == 200)
        #expect(master.header("X-HLS-Proxy-Route") == "master")
        let renditions = master.text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }
        #expect(renditions.count == 3, "\(master.text)")

        let variant = try await TestClient.get(port: port, "/origin/v0/index.m3u8")
        #expect(variant.status == 302)
        #expect(variant.header("Location") == "http://127.0.0.1:\(port)/files/v0/index.m3u8")
        let target = try await TestClient.get(port: port, "/files/v0/index.m3u8")
        #expect(target.status == 200)
        #expect(target.text.hasPrefix("#EXTM3U"))

        let uri = renditions.first.flatMap { line in
            line.range(of: "URI=\"").map { String(line[$0.upperBound...].prefix { $0 != "\"" }) }
        }
        let subtitles = try await TestClient.get(port: port, try #require(uri))
        #expect(subtitles.status == 200)
        #expect(subtitles.text.contains("#EXT-X-ENDLIST"), "\(subtitles.text)")
        let file = try await TestClient.get(port: port, try #require(uri).replacingOccurrences(of: "index.m3u8", with: "0.vtt"))
        #expect(file.status == 200)
        #expect(file.text.hasPrefix("WEBVTT"))
        #expect(file.text.contains("-->"))
    }
}
