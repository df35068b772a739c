import Testing
@testable import Proxy

/// Subtitle URLs are read once per path and kept; what is not one (or is signed) is read every time.
@Suite struct SubtitleURLsTests {
    static func makeRouter() throws -> RequestRouter {
        RequestRouter(config: try ConfigTestSupport.decode(#"{"mounts": {"sample": {"origin": "http://127.0.0.1:9/vod/"}}}"#))
    }

    static let master = Base64URL.encode(Array("/sample/master.m3u8".utf8))

    @Test func aSubtitlePathIsReadOnceAndGivesTheSameURLEveryTime() throws {
        let router = try Self.makeRouter()
        let path = "/_hls-proxy/v1/sample/en/\(Self.master)/3.vtt"
        for _ in 0..<3 {
            guard case .subtitle(let url) = try router.route(rawPath: path, query: nil) else {
                Issue.record("not a subtitle URL")
                return
            }
            #expect(url == SubtitleURL(setName: "sample", trackID: "en", masterTarget: "/sample/master.m3u8", resource: .segment(3)))
        }
        #expect(router.subtitleURLs.count == 1)
        guard case .subtitle(let playlist) = try router.route(rawPath: "/_hls-proxy/v1/sample/en/\(Self.master)/index.m3u8", query: "x=1") else {
            Issue.record("not a subtitle URL")
            return
        }
        #expect(playlist.resource == .playlist)
        #expect(router.subtitleURLs.count == 2)
    }

    @Test(arguments: ["/_hls-proxy", "/_hls-proxy/", "/_hls-proxy/v2/s/en/L2E/0.vtt", "/_hls-proxy/v1/s/en/!!/0.vtt", "/_hls-proxy/v1/s/en/L2E/+1.vtt"])
    func whatIsNotASubtitleURLIsRefusedEveryTimeAndNotKept(path: String) throws {
        let router = try Self.makeRouter()
        for _ in 0..<2 {
            #expect(throws: ProxyError.self) { try router.route(rawPath: path, query: nil) }
        }
        #expect(router.subtitleURLs.count == 0)
    }

    @Test func theSignedFormIsReadWithItsQueryAndNotKept() throws {
        let router = try Self.makeRouter()
        let path = "/_hls-proxy/v1/\(SignedURL.reservedSetName)/token/master.m3u8"
        _ = try? router.route(rawPath: path, query: "sig=1")
        #expect(router.subtitleURLs.count == 0)
    }

    @Test func aPathLongerThanTheLimitIsReadEveryTimeAndNotKept() throws {
        let router = try Self.makeRouter()
        let long = "/sample/master.m3u8?token=" + String(repeating: "t", count: 1_200)
        let path = "/_hls-proxy/v1/sample/en/\(Base64URL.encode(Array(long.utf8)))/0.vtt"
        for _ in 0..<2 {
            guard case .subtitle(let url) = try router.route(rawPath: path, query: nil) else {
                Issue.record("not a subtitle URL")
                return
            }
            #expect(url.masterTarget == long)
            #expect(try router.routeMaster(url.masterTarget).proxyTarget == long)
        }
        #expect(router.subtitleURLs.count == 0)
        #expect(router.masterRoutes.count == 0)
    }

    @Test func pastItsCapacityTheTableIsEmptiedAndFillsAgain() throws {
        let urls = SubtitleURLs()
        let parse: (Substring) -> SubtitleURL? = { SubtitleURL(setName: "s", trackID: String($0), masterTarget: "/m", resource: .playlist) }
        for index in 0..<SubtitleURLs.capacity { _ = urls.url("t\(index)"[...], parse: parse) }
        #expect(urls.count == SubtitleURLs.capacity)
        _ = urls.url("one more"[...], parse: parse)
        #expect(urls.count == 1)
    }
}
