import Foundation
import TestSupport
import Testing

/// The proxy with two event loop threads: the handlers that answer on a loop thread (redirects, cached
/// masters, files, health) run on both at once, next to the async routes, and every answer and every
/// count stays right.
@Suite(.timeLimit(.minutes(2))) struct EventLoopThreadsTests {
    static let config = ProxyHarness.standardConfig.replacingOccurrences(
        of: #""mounts": {"#, with: #""listen": { "threads": 2 }, "mounts": {"#)

    @Test func mixedConcurrentRequestsOnTwoLoopsAllGetTheirAnswers() async throws {
        try await withProxy(Self.config) { proxy in
            let master = try await proxy.get("/origin/vod-ts/master.m3u8")
            let subtitle = try #require(master.text.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MEDIA:") }
                .flatMap { line -> String? in
                    guard let start = line.range(of: "URI=\"") else { return nil }
                    return String(line[start.upperBound...].prefix { $0 != "\"" })
                })
            let file = Array(try #require(FileManager.default.contents(atPath: Fixtures.directory.path + "/vod-ts/v0/seg000.ts")))
            let cases: [(target: String, status: Int)] = [
                ("/origin/vod-ts/v0/seg000.ts", 302), ("/origin/vod-ts/master.m3u8", 200), (subtitle, 200),
                ("/files/vod-ts/v0/seg000.ts", 200), ("/healthz", 200), ("/nowhere/x", 404),
            ]
            let rounds = 20
            let outcomes = try await withThrowingTaskGroup(of: [String].self) { group in
                for worker in 0..<12 {
                    group.addTask {
                        var problems: [String] = []
                        for round in 0..<rounds {
                            let (target, status) = cases[(worker + round) % cases.count]
                            let response = try await proxy.get(target)
                            if response.status != status { problems.append("\(target) -> \(response.status)") }
                            if target == "/origin/vod-ts/master.m3u8", response.body != master.body { problems.append("master bytes differ") }
                            if target.hasPrefix("/files/"), response.body != file { problems.append("file bytes differ") }
                        }
                        return problems
                    }
                }
                var all: [String] = []
                for try await problems in group { all += problems }
                return all
            }
            #expect(outcomes.isEmpty, "\(outcomes.prefix(5))")
            // Every request above and the first master: counted once each, whichever loop served it.
            let metrics = try await proxy.get("/metrics").text
            let counted = metrics.split(separator: "\n").filter { $0.hasPrefix("hls_proxy_requests_total{") }
                .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +)
            #expect(counted == 12 * rounds + 1)
        }
    }
}
