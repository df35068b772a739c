import Foundation
import Proxy
import TestSupport
import Testing

/// ffmpeg plays the bundled sample through a `proxy`-mode mount whose origin refuses requests without
/// a bearer token: every variant playlist and segment must come through the proxy, which adds it.
@Suite struct RealPlayerPassThroughTests {
    @Test func ffmpegDecodesTheSampleThroughAProxyModeMountOfATokenOrigin() async throws {
        guard let ffmpeg = RealPlayerTests.executable("ffmpeg") else {
            print("\n**** SKIPPED: ffmpeg not installed: the proxy-mode real-player check did NOT run ****\n")
            if ProcessInfo.processInfo.environment["HLS_PROXY_REQUIRE_FFMPEG"] == "1" { Issue.record("ffmpeg required") }
            return
        }
        let root = RealPlayerTests.repositoryRoot + "/Examples/sample-vod"
        let origin = try FixtureOrigin(root: root, requiredHeader: (name: "Authorization", value: "Bearer sample-token"))
        let json = """
            { "mounts": { "sample": { "origin": "http://127.0.0.1:\(origin.port)", "segments": "proxy",
                                      "inject_headers": { "Authorization": "Bearer ${TOKEN}" } } },
              "subtitles": [ { "name": "sample", "masters": ["/sample/master.m3u8"],
                               "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "subs/en.vtt" } ] } ] }
            """
        var config = try ProxyConfig.decode(Array(json.utf8), environment: ["TOKEN": "sample-token"])
        config.listen.port = 0
        let service = ProxyService(config: config, logger: .silent)
        try service.start()
        let url = "http://127.0.0.1:\(service.port)/sample/master.m3u8"
        let decoded = try await RealPlayerTests.run(ffmpeg, ["-nostdin", "-v", "error", "-i", url, "-map", "0:v:0", "-f", "null", "-"])
        let direct = try await RealPlayerTests.run(ffmpeg, [
            "-nostdin", "-v", "error", "-i", "http://127.0.0.1:\(origin.port)/master.m3u8", "-f", "null", "-",
        ])
        await service.stop()
        await origin.stop()
        #expect(decoded.status == 0, "ffmpeg through the proxy failed: \(decoded.errors)")
        #expect(direct.status != 0, "the origin should refuse a player without the token")
        // Exactly the direct attempt was refused: nothing the proxy fetched lacked the token.
        #expect(origin.refusals == 1)
    }
}
