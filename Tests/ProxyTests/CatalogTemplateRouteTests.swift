import Foundation
import TestSupport
import Testing

/// Templated masters over real sockets: captures from the request path substituted into track sources
/// and names, exactly as the request spelled them.
@Suite struct CatalogTemplateRouteTests {
    static let config = """
        {
          "mounts": { "origin": { "origin": "ORIGIN" } },
          "subtitles": [
            { "name": "catalog", "masters": ["/origin/{asset}/master.m3u8"],
              "tracks": [
                { "id": "en", "name": "English {asset}", "language": "en", "default": true, "source": "SUBS/subs/{asset}/en.vtt" }
              ] }
          ]
        }
        """

    /// Fetches the master, its English playlist and first segment; returns the master.
    private static func playFirstSegment(_ proxy: ProxyHarness, master path: String) async throws -> RawResponse {
        let master = try await proxy.get(path)
        #expect(master.status == 200)
        #expect(master.header("X-HLS-Proxy-Route") == "master")
        let uri = try #require(subtitleRenditions(master).first.flatMap(renditionURI))
        let playlist = try await proxy.get(uri)
        #expect(playlist.status == 200)
        let segment = try await proxy.get(uri.replacingOccurrences(of: "index.m3u8", with: "0.vtt"))
        #expect(segment.status == 200)
        #expect(segment.text.hasPrefix("WEBVTT"))
        #expect(segment.text.contains("-->"))
        return master
    }

    @Test func aTemplatedTSMasterFetchesItsSubtitleSourceAtTheSubstitutedURL() async throws {
        let sources = try SubtitleSourceOrigin()
        try await withSubtitleSources(Self.config, sources: sources) { proxy in
            let master = try await Self.playFirstSegment(proxy, master: "/origin/vod-ts/master.m3u8")
            #expect(subtitleRenditions(master).first?.contains("NAME=\"English vod-ts\"") == true)
            #expect(sources.requests(method: "GET").map(\.target) == ["/subs/vod-ts/en.vtt"])
        }
    }

    @Test func aTemplatedFMP4MasterFetchesItsSubtitleSourceAtTheSubstitutedURL() async throws {
        let sources = try SubtitleSourceOrigin()
        try await withSubtitleSources(Self.config, sources: sources) { proxy in
            let master = try await Self.playFirstSegment(proxy, master: "/origin/vod-fmp4/master.m3u8")
            #expect(subtitleRenditions(master).first?.contains("NAME=\"English vod-fmp4\"") == true)
            #expect(sources.requests(method: "GET").map(\.target) == ["/subs/vod-fmp4/en.vtt"])
        }
    }

    @Test func aPercentEncodedCaptureReachesTheSourceStillEncoded() async throws {
        let sources = try SubtitleSourceOrigin()
        try await withSubtitleSources(Self.config, sources: sources) { proxy in
            _ = try await Self.playFirstSegment(proxy, master: "/origin/vod%2Dts/master.m3u8")
            #expect(sources.requests(method: "GET").map(\.target) == ["/subs/vod%2Dts/en.vtt"])
        }
    }

    @Test func twoAssetsOfOneSetNeverShareCues() async throws {
        let sources = try SubtitleSourceOrigin()
        try await withSubtitleSources(Self.config, sources: sources) { proxy in
            _ = try await Self.playFirstSegment(proxy, master: "/origin/vod-ts/master.m3u8")
            _ = try await Self.playFirstSegment(proxy, master: "/origin/vod-fmp4/master.m3u8")
            #expect(Set(sources.requests(method: "GET").map(\.target)) == ["/subs/vod-ts/en.vtt", "/subs/vod-fmp4/en.vtt"])
        }
    }
}
