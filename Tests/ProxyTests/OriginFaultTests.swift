import Foundation
import Testing

/// Origin failures become the statuses SPEC names, within the configured timeout.
@Suite struct OriginFaultTests {
    @Test(arguments: [(404, 404), (403, 403), (500, 502), (503, 502)])
    func originStatusesMapToWhatThePlayerGets(origin: Int, expected: Int) async throws {
        try await withProxy { proxy in
            proxy.origin.setFault("/vod-ts/master.m3u8", .status(origin))
            let response = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(response.status == expected)
            #expect(response.text.contains("origin answered \(origin)"))
        }
    }

    @Test func anUnreachableOriginIs502() async throws {
        // Port 1 on loopback: nothing listens there, so the connection is refused.
        let config = """
            { "mounts": { "dead": { "origin": "http://127.0.0.1:1" } },
              "subtitles": [ { "name": "s", "tracks": [ { "name": "English", "language": "en", "source": "en.vtt" } ] } ] }
            """
        try await withProxy(config) { proxy in
            let response = try await proxy.get("/dead/master.m3u8")
            #expect(response.status == 502)
        }
    }

    @Test func aHangingOriginIs504WithinTheTimeout() async throws {
        // The standard config allows 10 s (generous, for loaded CI machines); this one allows 1 s.
        let config = ProxyHarness.standardConfig.replacingOccurrences(of: #""origin_seconds": 10"#, with: #""origin_seconds": 1"#)
        try await withProxy(config) { proxy in
            proxy.origin.setFault("/vod-ts/master.m3u8", .delay(.seconds(30)))
            let response = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(response.status == 504)
        }
    }

    @Test func anOversizeMasterIs502() async throws {
        try await withProxy { proxy in
            let huge = Array("#EXTM3U\n".utf8) + [UInt8](repeating: UInt8(ascii: "#"), count: 70_000)
            proxy.origin.setFault("/vod-ts/master.m3u8", .body(huge, contentType: "application/vnd.apple.mpegurl"))
            let response = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(response.status == 502)
        }
    }

    @Test func theServerKeepsServingAfterOriginFaults() async throws {
        try await withProxy { proxy in
            proxy.origin.setFault("/vod-ts/master.m3u8", .status(500))
            let failed = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(failed.status == 502)
            proxy.origin.setFault("/vod-ts/master.m3u8", nil)
            let recovered = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(recovered.status == 200)
        }
    }
}
