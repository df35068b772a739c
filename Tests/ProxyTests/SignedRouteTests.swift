import Foundation
import TestSupport
import Testing
@testable import Proxy

/// Signed playback URLs over real sockets: every refusal answered 403 with its reason and counted, a
/// verified token served (SignedPlaybackRouteTests has the details), and the longest URL within the
/// request-line limit.
@Suite struct SignedRouteTests {
    static let key = "example-key-do-not-use-0123456789abcdef"
    static let config = ProxyHarness.standardConfig.replacingOccurrences(
        of: #""timeouts": { "origin_seconds": 10 },"#,
        with: #""timeouts": { "origin_seconds": 10 }, "signing": { "keys": { "k1": "${SIGNING_KEY}" }, "grace_seconds": 600 },"#)
    static let environment = ["TOKEN": "secret-token", "SIGNING_KEY": key]
    static let tracks: [ConfigValue] = [
        .object(["language": .string("en"), "name": .string("English"), "source": .string("/subtitles/en.vtt"), "default": .bool(true)]),
        .object(["id": .string("fr-cc"), "language": .string("fr"), "name": .string("Français"), "source": .string("/subtitles/fr.vtt")]),
    ]
    static let now = Int64(Date().timeIntervalSince1970)

    static func token(expiresIn: Int64 = 3600, master: String = "/origin/vod-ts/master.m3u8", tracks: [ConfigValue] = tracks,
                      keyID: String = "k1", key: String = key) -> String {
        SignedTokenSigner.token(keyID: keyID, key: key, payload: SignedTokenSigner.payload(
            expiry: now + expiresIn, master: master, tracks: tracks, subtitles: ["fr"], defaultTrack: "fr"))
    }

    static func withSigningProxy(_ body: (ProxyHarness) async throws -> Void) async throws {
        try await withProxy(config, environment: environment, body)
    }

    static func refusals(_ proxy: ProxyHarness, _ reason: String) async throws -> String? {
        let metrics = try await proxy.get("/metrics").text
        return metrics.split(separator: "\n").first { $0.hasPrefix("hls_proxy_signed_refusals_total{reason=\"\(reason)\"}") }.map(String.init)
    }

    @Test func aVerifiedMasterAndItsSubtitleURLsAreServed() async throws {
        try await Self.withSigningProxy { proxy in
            let token = Self.token()
            let master = try await proxy.get(SignedURL.path(token: token, resource: .master))
            #expect(master.status == 200, "\(master.text)")
            #expect(master.text.contains(SignedURL.path(token: token, resource: .subtitle(trackID: "fr-cc", .playlist))))
            let playlist = try await proxy.get(SignedURL.path(token: token, resource: .subtitle(trackID: "fr-cc", .playlist)))
            #expect(playlist.status == 200, "\(playlist.text)")
            let segment = try await proxy.get(SignedURL.path(token: token, resource: .subtitle(trackID: "fr-cc", .segment(2))))
            #expect(segment.status == 200, "\(segment.text)")
            #expect(segment.text.hasPrefix("WEBVTT"))
            // The token lists fr only (`subtitles`): its en track is not served.
            #expect(try await proxy.get(SignedURL.path(token: token, resource: .subtitle(trackID: "en", .playlist))).status == 404)
        }
    }

    @Test func aTamperedTokenIsRefusedWith403AndCountedAsABadSignature() async throws {
        try await Self.withSigningProxy { proxy in
            var token = Array(Self.token().utf8)
            let position = token.count / 2
            token[position] = token[position] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            let response = try await proxy.get(SignedURL.path(token: String(decoding: token, as: UTF8.self), resource: .master))
            #expect(response.status == 403)
            #expect(response.text.contains("signed URL refused: bad signature"), "\(response.text)")
            #expect(response.text.split(separator: "\n").count == 1)
            #expect(try await Self.refusals(proxy, "bad_signature") == #"hls_proxy_signed_refusals_total{reason="bad_signature"} 1"#)
        }
    }

    @Test func anUnknownKeyAnExpiredTokenAndAMalformedOneAreEachRefusedAndCounted() async throws {
        try await Self.withSigningProxy { proxy in
            let cases: [(String, String, String)] = [
                (Self.token(keyID: "k9"), "unknown_key", "unknown key id \"k9\""),
                (Self.token(expiresIn: -1), "expired", "expired"),
                ("k1.bm90IGEgdG9rZW4", "malformed", "malformed token"),
                (Self.token(master: "/nowhere/master.m3u8"), "invalid_master", "invalid master"),
                (Self.token(tracks: []), "invalid_track", "invalid track: tracks"),
            ]
            for (token, reason, text) in cases {
                let response = try await proxy.get(SignedURL.path(token: token, resource: .master))
                #expect(response.status == 403, "\(reason)")
                #expect(response.text.contains(text), "\(reason): \(response.text)")
                #expect(try await Self.refusals(proxy, reason) == "hls_proxy_signed_refusals_total{reason=\"\(reason)\"} 1")
            }
        }
    }

    @Test func subtitleURLsOutliveTheMasterByTheGracePeriodOnly() async throws {
        try await Self.withSigningProxy { proxy in
            let expired = Self.token(expiresIn: -60)
            #expect(try await proxy.get(SignedURL.path(token: expired, resource: .master)).status == 403)
            let inGrace = try await proxy.get(SignedURL.path(token: expired, resource: .subtitle(trackID: "fr-cc", .segment(0))))
            #expect(inGrace.status == 200)
            #expect(SubtitleRouteTests.timingLines(inGrace.text).first == "00:00:00.500 --> 00:00:02.500")
            // grace_seconds is 600 in this config.
            let pastGrace = Self.token(expiresIn: -601)
            let response = try await proxy.get(SignedURL.path(token: pastGrace, resource: .subtitle(trackID: "fr-cc", .segment(0))))
            #expect(response.status == 403)
            #expect(response.text.contains("past its grace period"))
        }
    }

    @Test func aTrackTheTokenDoesNotCarryIsNotFound() async throws {
        try await Self.withSigningProxy { proxy in
            let response = try await proxy.get(SignedURL.path(token: Self.token(), resource: .subtitle(trackID: "de", .playlist)))
            #expect(response.status == 404)
            #expect(response.text.contains("no track \"de\""))
        }
    }

    @Test func withoutSigningConfiguredEverySignedURLIsRefused() async throws {
        try await withProxy { proxy in
            let response = try await proxy.get(SignedURL.path(token: Self.token(), resource: .master))
            #expect(response.status == 403)
            #expect(response.text.contains("signing is not configured"))
            #expect(try await Self.refusals(proxy, "not_configured") == #"hls_proxy_signed_refusals_total{reason="not_configured"} 1"#)
        }
    }

    @Test(arguments: ["/_hls-proxy/v1/signed/tok/other.m3u8", "/_hls-proxy/v1/signed/tok/en/x.vtt", "/_hls-proxy/v1/signed/tok/en/-1.vtt",
                      "/_hls-proxy/v1/signed//master.m3u8", "/_hls-proxy/v1/signed/tok/e%20n/index.m3u8", "/_hls-proxy/v1/signed/tok"])
    func pathsThatAreNotASignedResourceAreNotFound(path: String) async throws {
        try await Self.withSigningProxy { proxy in
            let response = try await proxy.get(path)
            #expect(response.status == 404, "\(response.text)")
        }
    }

    @Test(arguments: ["%41%42.c.d", "k1.%2e.%2e", "k1..", "%F0%9F%98%80.a.b", "k1.a.b;c=d", String(repeating: "A.", count: 200)])
    func oddBytesInTheTokenAreRefusedWith403(token: String) async throws {
        try await Self.withSigningProxy { proxy in
            let response = try await proxy.get("/_hls-proxy/v1/signed/\(token)/master.m3u8")
            #expect(response.status == 403)
            #expect(response.text.contains("signed URL refused: "), "\(response.text)")
        }
    }

    /// The longest subtitle URL a token can make (longest track id, segment 999999) is served when its
    /// request line is exactly at the server's limit; the server answers 414 one byte past it, which is
    /// why the verifier refuses tokens whose URLs would not fit.
    @Test func theLongestSubtitleURLAtTheRequestLineLimitIsServed() async throws {
        try await Self.withSigningProxy { proxy in
            let id = String(repeating: "t", count: 40)
            func token(padding: Int) -> String {
                Self.token(tracks: [.object(["id": .string(id), "language": .string("en"), "name": .string("E"),
                                             "source": .string("/subtitles/en.vtt?" + String(repeating: "x", count: padding))])])
            }
            let limit = SignedPlayback.requestLineLimit
            func length(_ token: String) -> Int {
                "GET ".utf8.count + SignedURL.path(token: token, resource: .subtitle(trackID: id, .segment(999_999))).utf8.count + " HTTP/1.1".utf8.count
            }
            // Base64url turns 3 payload bytes into 4 characters: start a little short of the limit.
            var padding = max(0, (limit - length(token(padding: 0))) / 4 * 3 - 6)
            while length(token(padding: padding + 1)) <= limit { padding += 1 }
            let fitting = token(padding: padding)
            #expect(length(fitting) > limit - 4)
            let atLimit = try await proxy.get(SignedURL.path(token: fitting, resource: .subtitle(trackID: id, .segment(999_999))))
            #expect(atLimit.status == 404, "\(atLimit.text)")  // served: its track has no segment 999999
            #expect(atLimit.text.contains("no subtitle segment"), "\(atLimit.text)")
            let master = try await proxy.get(SignedURL.path(token: fitting, resource: .master))
            #expect(master.status == 200)
            let tooLong = token(padding: padding + 1)
            let refused = try await proxy.get(SignedURL.path(token: tooLong, resource: .master))
            #expect(refused.status == 403)
            #expect(refused.text.contains("request line"), "\(refused.text)")
            let overLimit = try await proxy.get(SignedURL.path(token: tooLong, resource: .subtitle(trackID: id, .segment(999_999))))
            #expect(overLimit.status == 414)
        }
    }
}
