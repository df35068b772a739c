import Foundation
import HTTPServer
@testable import Proxy
import TestSupport

/// A proxy whose `bucket` mount streams from `originURL` in `proxy` mode with the bearer token injected,
/// and whose disk cache (when `directory` is set) lives there. Several may be made in turn over the
/// same directory to stand for restarts.
final class DiskCacheHarness: Sendable {
    let service: ProxyService
    private let lines = LockedBox<[String]>([])

    /// `otherMounts` are more JSON members of `mounts` (each `"name": {...}`), with `ORIGIN` standing for
    /// `originURL`.
    init(originURL: String, token: String = "secret-token", directory: String?, maxBytes: Int = 1 << 30, otherMounts: [String] = [],
         level: LogSeverity = .warn) throws {
        let disk = directory.map { #", "disk_directory": "\#($0)", "disk_max_bytes": \#(maxBytes)"# } ?? ""
        let others = otherMounts.map { ", " + $0.replacingOccurrences(of: "ORIGIN", with: originURL) }.joined()
        let json = """
            { "mounts": { "bucket": { "origin": "\(originURL)", "segments": "proxy",
                                      "inject_headers": { "Authorization": "Bearer ${TOKEN}" } } \(others) },
              "cache": { "master_ttl_seconds": 0 \(disk) } }
            """
        var config = try ProxyConfig.decode(Array(json.utf8), environment: ["TOKEN": token])
        config.listen.port = 0
        let lines = self.lines
        service = ProxyService(config: config, logger: ProxyLogger(
            level: level, accessSink: { _ in }, diagnosticSink: { line in lines.withLock { $0.append(line) } }))
        try service.start()
    }

    /// The diagnostic log lines so far (`level` and above; warn unless told).
    var logLines: [String] { lines.withLock { $0 } }

    var diskCache: DiskCache? { service.handler.diskCache }

    func get(_ target: String, method: String = "GET", headers: [(String, String)] = []) async throws -> RawResponse {
        try await TestClient.get(port: service.port, target, method: method, headers: headers)
    }

    func stop() async { await service.stop() }

    /// A fresh empty directory for one test's cache.
    static func makeDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "disk-cache-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The names in a cache directory, sorted.
    static func files(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }
}
