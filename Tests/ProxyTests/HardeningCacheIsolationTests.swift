import Foundation
import Testing
@testable import Proxy

/// The in-memory caches key on who a body was fetched for: a mount's credentials, the URL form, the
/// forwarded values. Over real sockets against the real proxy and origin.
@Suite struct HardeningCacheIsolationTests {
    /// A mount that injects `Authorization` and the embedded form, both claimed by one subtitle set.
    static let credentialedConfig = """
        {
          "mounts": {
            "secure": { "origin": "ORIGIN", "inject_headers": { "Authorization": "Bearer ${TOKEN}" } },
            "open": { "origin": "ORIGIN" }
          },
          "embedded": { "allow_hosts": ["127.0.0.1"] },
          "subtitles": [
            { "name": "vod", "masters": ["/secure/vod-ts/*", "/open/vod-ts/*", "/http/127.0.0.1:*/vod-ts/*"],
              "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "/subtitles/en.vtt" } ] }
          ],
          "cache": { "master_ttl_seconds": 60, "subtitle_ttl_seconds": 60 }
        }
        """

    @Test func aMasterFetchedWithAMountsCredentialsIsNotServedToTheEmbeddedFormWithout() async throws {
        try await withProxy(Self.credentialedConfig) { proxy in
            proxy.origin.setFault("/vod-ts/master.m3u8", .requireHeader(name: "Authorization", value: "Bearer secret-token"))
            let credentialed = try await proxy.get("/secure/vod-ts/master.m3u8")
            #expect(credentialed.status == 200)
            #expect(credentialed.text.contains("#EXT-X-MEDIA:TYPE=SUBTITLES"))
            let embedded = try await proxy.get("/http/127.0.0.1:\(proxy.origin.port)/vod-ts/master.m3u8")
            #expect(embedded.status == 403, "the embedded form carries no credentials, so the origin refuses it")
            #expect(!embedded.text.contains("#EXTM3U"))
            #expect(proxy.origin.hits("/vod-ts/master.m3u8") == 2)
            // A mount on the same origin without the credentials is refused too.
            #expect(try await proxy.get("/open/vod-ts/master.m3u8").status == 403)
        }
    }

    @Test func aSubtitleFileFetchedWithAMountsCredentialsIsNotServedToTheEmbeddedFormWithout() async throws {
        try await withProxy(Self.credentialedConfig) { proxy in
            proxy.origin.setFault("/subtitles/en.vtt", .requireHeader(name: "Authorization", value: "Bearer secret-token"))
            let mounted = try await proxy.get(Self.subtitleFile(master: "/secure/vod-ts/master.m3u8"))
            #expect(mounted.status == 200)
            #expect(mounted.text.contains("-->"))
            let embedded = try await proxy.get(Self.subtitleFile(master: "/http/127.0.0.1:\(proxy.origin.port)/vod-ts/master.m3u8"))
            #expect(embedded.status == 200)
            #expect(!embedded.text.contains("-->"), "the origin refused the embedded form's fetch: an empty track, not the cached cues")
        }
    }

    @Test func theSameMasterThroughTwoURLFormsGetsSubtitleURIsOfItsOwnForm() async throws {
        try await withProxy(Self.credentialedConfig) { proxy in
            let embeddedTarget = "/http/127.0.0.1:\(proxy.origin.port)/vod-ts/master.m3u8"
            for target in ["/open/vod-ts/master.m3u8", embeddedTarget, "/open/vod-ts/master.m3u8"] {
                let response = try await proxy.get(target)
                #expect(response.status == 200)
                let masters = Self.subtitleURIs(in: response.text).map(Self.masterTarget(ofSubtitleURI:))
                #expect(!masters.isEmpty)
                #expect(masters.allSatisfy { $0 == target }, "\(target): \(masters)")
            }
        }
    }

    static func subtitleFile(master: String) -> String {
        SubtitleURL(setName: "vod", trackID: "en", masterTarget: master, resource: .segment(0)).path
    }

    static func subtitleURIs(in master: String) -> [String] {
        master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }.compactMap { line in
            guard let start = line.range(of: "URI=\"") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        }
    }

    /// The master target a subtitle URI carries (its fourth segment after the prefix, base64url).
    static func masterTarget(ofSubtitleURI uri: String) -> String? {
        let segments = uri.split(separator: "/")
        guard segments.count == 6, let bytes = Base64URL.decode(segments[4]) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
