@testable import Proxy
import Testing

/// The reserved `_hls_proxy` query parameter of wrapped masters' variant URIs.
@Suite struct WrapMarkerTests {
    @Test(arguments: [
        ("/m/v0/index.m3u8", "index.m3u8?_hls_proxy=media"),
        ("/m/v0/index.m3u8?token=a%26b", "index.m3u8?token=a%26b&_hls_proxy=media"),
        ("/m/v0/index.m3u8?", "index.m3u8?_hls_proxy=media"),
        ("/m/a:b.m3u8", "./a:b.m3u8?_hls_proxy=media"),
        ("/m/live/", "./?_hls_proxy=media"),
        ("/m/x.ism/manifest(format=m3u8-aapl)", "manifest(format=m3u8-aapl)?_hls_proxy=media"),
    ])
    func theVariantURIResolvesToTheSamePathWithTheMarker(target: String, expected: String) {
        #expect(WrapMarker.variantURI(forTarget: target) == expected)
    }

    @Test func stripTakesTheMarkerOutAndKeepsTheRestInOrder() throws {
        #expect(try WrapMarker.strip(nil) == nil)
        #expect(try WrapMarker.strip("a=1") == nil)
        #expect(try WrapMarker.strip("_hls_proxyx=1") == nil)
        #expect(try WrapMarker.strip("_hls_proxy=media") == .some(nil))
        #expect(try WrapMarker.strip("a=1&_hls_proxy=media&b=2") == .some("a=1&b=2"))
    }

    @Test(arguments: ["_hls_proxy", "_hls_proxy=", "_hls_proxy=master", "_hls_proxy=media&_hls_proxy=media", "_hls_proxy=media=1"])
    func aMalformedMarkerIsRefusedWith400(query: String) {
        #expect(throws: ProxyError.self) { try WrapMarker.strip(query) }
        do {
            _ = try WrapMarker.strip(query)
        } catch {
            #expect(error.status.code == 400)
        }
    }

    @Test func aWrappingSetWithAWildcardPatternIsWarnedAboutAtStartUp() throws {
        let json = """
            {
              "mounts": { "m": { "origin": "/tmp" } },
              "subtitles": [
                { "name": "w", "masters": ["*.m3u8", "/m/one/index.m3u8"], "wrap_media_playlists": true,
                  "tracks": [{ "id": "en", "name": "English", "language": "en", "source": "en.vtt" }] },
                { "name": "plain", "masters": ["*.m3u8"], "tracks": [{ "id": "en", "name": "English", "language": "en", "source": "en.vtt" }] }
              ]
            }
            """
        let service = ProxyService(config: try ProxyConfig.decode(Array(json.utf8), environment: [:]), logger: .silent)
        let warnings = service.startupWarnings.filter { $0.contains("wraps media playlists") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix(#"subtitles "w" wraps media playlists on the pattern "*.m3u8""#) == true)
    }
}
