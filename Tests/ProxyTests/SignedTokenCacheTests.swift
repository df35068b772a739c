import Foundation
import HTTPClient
import Synchronization
import TestSupport
import Testing
@testable import Proxy

/// Verified tokens are kept, so a film's many `.vtt` requests run the MAC and the decode once per
/// token, while its expiry is still checked on every request; a reload's new keys start a new cache.
/// And a signed master found in the rewritten-master cache runs no optional-track probe.
@Suite(.timeLimit(.minutes(1))) struct SignedTokenCacheTests {
    /// A responder over the signing test config, with a clock the test moves.
    struct Fixture {
        let responder: SignedResponder
        let router: RequestRouter
        let now = LockedBox<Int64>(SignedRouteTests.now)

        init() throws {
            let json = SignedRouteTests.config.replacingOccurrences(of: "ORIGIN", with: "http://127.0.0.1:9")
                .replacingOccurrences(of: "FIXTURES", with: Fixtures.directory.path)
            let config = try ProxyConfig.decode(Array(json.utf8), environment: SignedRouteTests.environment)
            router = RequestRouter(config: config)
            let now = self.now
            responder = SignedResponder(config: config, router: router, metrics: ProxyMetrics(), logger: .silent, clock: { now.withLock { $0 } })
        }

        func signed(_ token: String, _ resource: SignedURL.Resource) throws -> SignedURL {
            guard case .signed(let url) = try router.route(rawPath: SignedURL.path(token: token, resource: resource), query: nil) else {
                throw ProxyError.notFound("not a signed URL")
            }
            return url
        }

        func refusal(_ url: SignedURL) -> String? {
            if case .failure(let refusal) = responder.verification(url) { return refusal.reason.rawValue }
            return nil
        }
    }

    @Test func aTokenIsVerifiedInFullOnceForAllItsRequests() throws {
        let fixture = try Fixture()
        let token = SignedRouteTests.token()
        for index in 0..<10 { #expect(fixture.refusal(try fixture.signed(token, .subtitle(trackID: "fr-cc", .segment(index)))) == nil) }
        #expect(fixture.refusal(try fixture.signed(token, .master)) == nil)
        #expect(fixture.responder.verifiedTokens.fullVerifications == 1)
        #expect(fixture.responder.verifiedTokens.count == 1)
    }

    @Test func aCachedTokenIsStillRefusedOnceItsExpiryAndItsGraceHavePassed() throws {
        let fixture = try Fixture()
        // Expires in 60 s; signing.grace_seconds is 600.
        let token = SignedRouteTests.token(expiresIn: 60)
        let master = try fixture.signed(token, .master)
        let subtitle = try fixture.signed(token, .subtitle(trackID: "fr-cc", .segment(0)))
        #expect(fixture.refusal(master) == nil)
        #expect(fixture.refusal(subtitle) == nil)
        fixture.now.withLock { $0 = SignedRouteTests.now + 60 }
        #expect(fixture.refusal(master) == "expired")
        #expect(fixture.refusal(subtitle) == nil)
        fixture.now.withLock { $0 = SignedRouteTests.now + 660 }
        #expect(fixture.refusal(subtitle) == "expired")
        // Refused from the cache: the MAC was checked once.
        #expect(fixture.responder.verifiedTokens.fullVerifications == 1)
    }

    @Test func aRefusedTokenIsNotKept() throws {
        let fixture = try Fixture()
        let forged = SignedRouteTests.token(key: "another-key-also-32-bytes-long-0000")
        for _ in 0..<3 { #expect(fixture.refusal(try fixture.signed(forged, .master)) == "bad_signature") }
        #expect(fixture.responder.verifiedTokens.count == 0)
        #expect(fixture.responder.verifiedTokens.fullVerifications == 3)
    }

    @Test func theCacheKeepsAtMostItsCapacityOfTokensForgettingTheLeastRecentlyUsed() throws {
        let fixture = try Fixture()
        let verified = try fixture.responder.verification(try fixture.signed(SignedRouteTests.token(), .master)).get()
        let cache = VerifiedTokenCache(capacity: 2)
        var verifications = 0
        let verify = { () -> Result<SignedResponder.Verified, SignedTokenRefusal> in
            verifications += 1
            return .success(verified)
        }
        for token in ["a", "b", "c"] { _ = cache.verified(token, verify: verify) }
        #expect(cache.count == 2)
        _ = cache.verified("c", verify: verify)
        #expect(verifications == 3)
        // "a" was forgotten to make room for "c".
        _ = cache.verified("a", verify: verify)
        #expect(verifications == 4)
    }

    @Test func aKeyRemovedByAConfigReloadNoLongerVerifiesATokenItSigned() async throws {
        let twoKeys = SignedRouteTests.config.replacingOccurrences(
            of: #""keys": { "k1": "${SIGNING_KEY}" }"#, with: #""keys": { "k1": "${SIGNING_KEY}", "k2": "${OLD_KEY}" }"#)
        let environment = SignedRouteTests.environment.merging(["OLD_KEY": "retired-key-0123456789abcdef0123456789"]) { $1 }
        try await withProxy(twoKeys, environment: environment) { proxy in
            let token = SignedRouteTests.token(keyID: "k2", key: "retired-key-0123456789abcdef0123456789")
            let subtitle = SignedURL.path(token: token, resource: .subtitle(trackID: "fr-cc", .playlist))
            #expect(try await proxy.get(subtitle).status == 200)
            #expect(try await proxy.get(subtitle).status == 200)
            let json = SignedRouteTests.config.replacingOccurrences(of: "ORIGIN", with: proxy.origin.baseURL)
                .replacingOccurrences(of: "FIXTURES", with: Fixtures.directory.path)
            let reloaded = try ProxyConfig.decode(Array(json.utf8), environment: environment)
            #expect(proxy.service.reload(file: "test", loading: { reloaded }))
            let refused = try await proxy.get(subtitle)
            #expect(refused.status == 403)
            #expect(refused.text.contains("unknown key"), "\(refused.text)")
        }
    }

    @Test func aCachedSignedMasterMakesNoProbeRequest() async throws {
        // Probe answers are kept no time, so only the rewritten-master cache can spare the second probe.
        let sources = try SubtitleSourceOrigin()
        let config = SignedRouteTests.config.replacingOccurrences(
            of: #""embedded": { "allow_hosts": ["127.0.0.1"] },"#,
            with: #""embedded": { "allow_hosts": ["127.0.0.1"], "allow_private_networks": true }, "cache": { "master_ttl_seconds": 60, "tracks_ttl_seconds": 0 },"#)
        let optional: ConfigValue = .object([
            "language": .string("de"), "name": .string("Deutsch"), "optional": .bool(true), "source": .string(sources.baseURL + "/subs/vod-ts/de.vtt"),
        ])
        do {
            try await withProxy(config, environment: SignedRouteTests.environment) { proxy in
                let token = SignedPlaybackRouteTests.token(master: "/origin/vod-ts/master.m3u8", tracks: [SignedPlaybackRouteTests.english, optional])
                let first = try await proxy.get(SignedURL.path(token: token, resource: .master))
                #expect(first.status == 200, "\(first.text)")
                #expect(sources.requests(method: "HEAD").count == 1)
                let second = try await proxy.get(SignedURL.path(token: token, resource: .master))
                #expect(second.status == 200)
                #expect(second.text == first.text)
                // Served from the rewritten-master cache: no second probe, no second origin fetch.
                #expect(sources.requests(method: "HEAD").count == 1)
                #expect(proxy.origin.hits("/vod-ts/master.m3u8") == 1)
            }
        } catch {
            await sources.stop()
            throw error
        }
        await sources.stop()
    }
}
