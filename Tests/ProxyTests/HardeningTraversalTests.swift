import Foundation
import TestSupport
import Testing

/// Traversal on http mounts: a mount may be a sub-path of its origin (`http://cdn/streams`), and an
/// origin resolves `..` (RFC 3986 §5.2.4), so dot segments in any spelling must never reach it.
@Suite struct HardeningTraversalTests {
    @Test(arguments: [
        "/m/../secret.m3u8", "/m/a/../../secret.m3u8", "/m/%2e%2e/secret.m3u8", "/m/%2E%2e/secret.m3u8",
        "/m/.%2e/secret.m3u8", "/m/..%2fsecret.m3u8", "/m/a%2f..%2f..%2fsecret.m3u8", "/m/..", "/m/%2e%2e",
        "/m/..%5csecret.m3u8", "/m/./../secret.m3u8",
    ])
    func dotSegmentsNeverReachAnHttpMountsOrigin(path: String) async throws {
        let origin = try TestOrigin(routes: [
            "/secret.m3u8": .raw(TestOrigin.response(status: 200, body: Array("#EXTM3U\nSECRET\n".utf8))),
            "/streams/ok.m3u8": .raw(TestOrigin.response(status: 200, body: Array("#EXTM3U\n".utf8))),
        ])
        defer { origin.stop() }
        let config = #"{ "mounts": { "m": { "origin": "\#(origin.url("/streams"))", "segments": "proxy" } } }"#
        try await withProxy(config) { proxy in
            #expect(try await proxy.get("/m/ok.m3u8").status == 200)
            let response = try await proxy.get(path)
            #expect(response.status == 403, "\(path) -> \(response.status)")
            #expect(!response.text.contains("SECRET"))
        }
        #expect(origin.requests().allSatisfy { $0.target.hasPrefix("/streams/") && !$0.target.contains("..") }, "\(origin.requests().map(\.target))")
    }
}

extension HardeningTraversalTests {
    @Test(arguments: ["/m/a..b.m3u8", "/m/..hidden/x.m3u8", "/m/v1/x..m3u8", "/m/a%2fb.m3u8"])
    func namesThatMerelyContainDotsStillPass(path: String) async throws {
        let origin = try TestOrigin(routes: [:])
        defer { origin.stop() }
        let config = #"{ "mounts": { "m": { "origin": "\#(origin.url("/streams"))", "segments": "proxy" } } }"#
        try await withProxy(config) { proxy in
            // The origin's own 404 comes back: the proxy sent the request on.
            let response = try await proxy.get(path)
            #expect(response.status == 404)
        }
        #expect(origin.requests().count == 1)
    }
}
