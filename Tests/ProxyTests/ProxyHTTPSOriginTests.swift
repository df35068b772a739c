import Foundation
import HTTPServer
import Proxy
import TestSupport
import Testing

/// The whole proxy in front of an https origin: the master, its media playlist and the subtitle
/// source all come over TLS, verified against the test CA named by `origin_ca_file`.
@Suite(.timeLimit(.minutes(1))) struct ProxyHTTPSOriginTests {
    @Test func aMasterFromAnHTTPSOriginComesBackWithSubtitlesFetchedOverHTTPS() async throws {
        let origin = try TLSTestOrigin(routes: [:], files: Fixtures.directory.path)
        defer { origin.stop() }
        let json = """
            {
              "mounts": { "secure": { "origin": "https://localhost:\(origin.port)" } },
              "origin_ca_file": "\(TLSTestOrigin.caFile)",
              "subtitles": [
                { "name": "vod", "masters": ["/secure/vod-ts/master.m3u8"],
                  "tracks": [{ "id": "en", "name": "English", "language": "en", "source": "/subtitles/en.vtt" }] }
              ]
            }
            """
        var config = try ProxyConfig.decode(Array(json.utf8), environment: [:])
        config.listen.port = 0
        let service = ProxyService(config: config, logger: .silent)
        try service.start()
        #expect(service.startupWarnings.isEmpty, "OpenSSL 3 loads here, so an https config gets no warning")

        let master = try await TestClient.get(port: service.port, "/secure/vod-ts/master.m3u8")
        #expect(master.status == 200)
        let media = try #require(master.text.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") })
        #expect(media.contains(#"LANGUAGE="en""#))
        #expect(master.text.contains(#"SUBTITLES="#))

        // The subtitle playlist and its first WebVTT segment need the subtitle source from the https origin.
        let uri = try #require(media.split(separator: "\"").drop { !$0.hasSuffix("URI=") }.dropFirst().first)
        let playlistTarget = uri.hasPrefix("/") ? String(uri) : "/secure/vod-ts/" + uri
        let playlist = try await TestClient.get(port: service.port, playlistTarget)
        #expect(playlist.status == 200)
        let segment = try #require(playlist.text.split(separator: "\n").first { !$0.hasPrefix("#") && !$0.isEmpty })
        let directory = String(playlistTarget[...(playlistTarget.lastIndex(of: "/") ?? playlistTarget.startIndex)])
        let vtt = try await TestClient.get(port: service.port, segment.hasPrefix("/") ? String(segment) : directory + String(segment))
        #expect(vtt.status == 200)
        #expect(vtt.text.hasPrefix("WEBVTT"))
        #expect(origin.requests.contains { $0.target == "/subtitles/en.vtt" })
        await service.stop()
    }
}
