import Foundation
import Glibc
import HTTPServer
import Proxy
import TestSupport

/// A proxy whose `bucket` mount streams from a GeneratedOrigin, injecting the bearer token the origin demands.
final class PassThroughHarness: Sendable {
    let origin: GeneratedOrigin
    let service: ProxyService

    init(extraCache: String = "") throws {
        let origin = try GeneratedOrigin()
        self.origin = origin
        let json = """
            { "mounts": { "bucket": { "origin": "\(origin.baseURL)", "segments": "proxy",
                                      "inject_headers": { "Authorization": "Bearer ${TOKEN}" } } },
              "cache": { "master_ttl_seconds": 0 \(extraCache) } }
            """
        var config = try ProxyConfig.decode(Array(json.utf8), environment: ["TOKEN": origin.token])
        config.listen.port = 0
        service = ProxyService(config: config, logger: ProxyLogger(level: .error, accessSink: { _ in }, diagnosticSink: { _ in }))
        try service.start()
    }

    var port: Int { service.port }

    func get(_ target: String, method: String = "GET", headers: [(String, String)] = []) async throws -> RawResponse {
        try await TestClient.get(port: port, target, method: method, headers: headers)
    }

    func stop() async {
        await service.stop()
        origin.stop()
    }
}

/// Runs `body` against a fresh pass-through harness, stopping it however `body` ends.
func withPassThrough(_ body: (PassThroughHarness) async throws -> Void) async throws {
    let harness = try PassThroughHarness()
    do {
        try await body(harness)
    } catch {
        await harness.stop()
        throw error
    }
    await harness.stop()
}

/// This process's resident set in bytes (/proc/self/statm, second field, in pages).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
