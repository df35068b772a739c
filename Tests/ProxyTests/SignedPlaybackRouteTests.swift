import Foundation
import HTTPClient
import Synchronization
import TestSupport
import Testing
@testable import Proxy

/// Signed playback served over real sockets: the token's master rewritten with exactly its tracks and
/// choices, variants at the master's own proxy path, subtitles under the token with the video's
/// timestamp map, a cache entry per token, and the token's sources kept out of internal space.
@Suite struct SignedPlaybackRouteTests {
    static let key = SignedRouteTests.key
    static let environment = SignedRouteTests.environment
    static let english: ConfigValue = .object([
        "language": .string("en"), "name": .string("English"), "source": .string("/subtitles/en.vtt"), "default": .bool(true),
    ])
    static let french: ConfigValue = .object([
        "id": .string("fr-cc"), "language": .string("fr"), "name": .string("Français"), "source": .string("/subtitles/fr.vtt"),
    ])
    static let german: ConfigValue = .object([
        "language": .string("de"), "name": .string("Deutsch"), "source": .string("/subtitles/en.vtt"),
    ])

    static func token(master: String, tracks: [ConfigValue] = [english, french], subtitles: [String]? = nil, defaultTrack: String? = nil) -> String {
        SignedTokenSigner.token(keyID: "k1", key: key, payload: SignedTokenSigner.payload(
            expiry: SignedRouteTests.now + 3600, master: master, tracks: tracks, subtitles: subtitles, defaultTrack: defaultTrack))
    }

    static func master(_ token: String) -> String { SignedURL.path(token: token, resource: .master) }

    static func languages(_ master: RawResponse) -> [String] {
        subtitleRenditions(master).compactMap { line in
            guard let start = line.range(of: "LANGUAGE=\"") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        }
    }

    static func subtitleURIs(_ master: RawResponse) -> [String] {
        subtitleRenditions(master).compactMap { line in
            guard let start = line.range(of: "URI=\"") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        }
    }

    static func variants(_ master: RawResponse) -> [String] {
        master.text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init)
    }

    /// `config` with `embedded` replaced by `embedded` (a JSON object body).
    static func config(embedded: String) -> String {
        SignedRouteTests.config.replacingOccurrences(of: #""embedded": { "allow_hosts": ["127.0.0.1"] },"#, with: #""embedded": { \#(embedded) },"#)
    }

    /// `subs.test` answers 127.0.0.1, the fixture origin's address, under another name than the mount's origin.
    static let resolver = HostResolver { host throws(HTTPClientError) in
        guard host == "subs.test" else { return try HostResolver.system.addresses(of: host) }
        return [IPAddress(bytes: [127, 0, 0, 1])].compactMap { $0 }
    }

    /// The checks every fixture shares: exactly the token's tracks under the token, variants under
    /// `variantPrefix` and answered by its usual route (redirected to `redirectedTo` plus the rest of
    /// their path where the mount redirects, else served), and the first English segment with its cues
    /// and timestamp map.
    static func expectServed(
        _ proxy: ProxyHarness, master: String, variantPrefix: String, redirectedTo: String? = nil, variantCount: Int, mpegts: String
    ) async throws {
        let token = Self.token(master: master)
        let response = try await proxy.get(Self.master(token))
        #expect(response.status == 200, "\(response.text)")
        #expect(response.header("Content-Type") == "application/vnd.apple.mpegurl")
        #expect(response.header("X-HLS-Proxy-Route") == "master")
        // The configured set "vod" claims most of these paths with en, fr and es: the token's tracks replace them.
        #expect(Self.languages(response) == ["en", "fr"])
        #expect(Self.subtitleURIs(response) == [
            SignedURL.path(token: token, resource: .subtitle(trackID: "en", .playlist)),
            SignedURL.path(token: token, resource: .subtitle(trackID: "fr-cc", .playlist)),
        ])
        let variants = Self.variants(response)
        #expect(variants.count == variantCount)
        for variant in variants {
            #expect(variant.hasPrefix(variantPrefix), "\(variant)")
            let playlist = try await proxy.get(variant)
            if let redirectedTo {
                #expect(playlist.status == 302, "\(variant): \(playlist.text)")
                #expect(playlist.header("Location") == redirectedTo + variant.dropFirst(variantPrefix.count))
            } else {
                #expect(playlist.status == 200, "\(variant): \(playlist.text)")
                #expect(playlist.text.contains("#EXTINF:"))
            }
        }
        let playlist = try await proxy.get(SignedURL.path(token: token, resource: .subtitle(trackID: "en", .playlist)))
        #expect(playlist.status == 200)
        #expect(playlist.header("X-HLS-Proxy-Route") == "subtitle-playlist")
        #expect(playlist.text.split(separator: "\n").filter { !$0.hasPrefix("#") } == ["0.vtt", "1.vtt", "2.vtt"])
        let segment = try await proxy.get(SignedURL.path(token: token, resource: .subtitle(trackID: "en", .segment(0))))
        #expect(segment.status == 200)
        #expect(segment.header("Content-Type") == "text/vtt; charset=utf-8")
        #expect(segment.text.contains("X-TIMESTAMP-MAP=MPEGTS:\(mpegts),LOCAL:00:00:00.000"))
        #expect(SubtitleRouteTests.timingLines(segment.text).first == "00:00:00.500 --> 00:00:02.500")
        let french = try await proxy.get(SignedURL.path(token: token, resource: .subtitle(trackID: "fr-cc", .segment(0))))
        // The token's fr track has no offset (the configured one has 1.5 s): its own cue times.
        #expect(SubtitleRouteTests.timingLines(french.text).first == "00:00:00.500 --> 00:00:02.500")
    }

    @Test func aSignedTSMasterListsExactlyTheTokensTracksWithVariantsAtTheMountPath() async throws {
        try await withProxy(SignedRouteTests.config, environment: Self.environment) { proxy in
            // The "origin" mount redirects media playlists to the origin, as it does for the plain master.
            try await Self.expectServed(
                proxy, master: "/origin/vod-ts/master.m3u8", variantPrefix: "/origin/vod-ts/", redirectedTo: proxy.origin.baseURL + "/vod-ts/",
                variantCount: 2, mpegts: "126000")
        }
    }

    @Test func aSignedFMP4MasterListsExactlyTheTokensTracksWithVariantsAtTheMountPath() async throws {
        try await withProxy(SignedRouteTests.config, environment: Self.environment) { proxy in
            // "proxied" serves media playlists itself, and no configured set claims its masters.
            try await Self.expectServed(proxy, master: "/proxied/vod-fmp4/master.m3u8", variantPrefix: "/proxied/vod-fmp4/", variantCount: 1, mpegts: "0")
        }
    }

    @Test func theEmbeddedFormServesAsTheTokensMaster() async throws {
        try await withProxy(SignedRouteTests.config, environment: Self.environment) { proxy in
            let embedded = "/http/127.0.0.1:\(proxy.origin.port)/vod-ts"
            try await Self.expectServed(
                proxy, master: embedded + "/master.m3u8", variantPrefix: embedded + "/", redirectedTo: proxy.origin.baseURL + "/vod-ts/",
                variantCount: 2, mpegts: "126000")
        }
    }

    @Test func aDirectoryMountMasterKeepsItsVariantsOnTheMount() async throws {
        try await withProxy(SignedRouteTests.config, environment: Self.environment) { proxy in
            try await Self.expectServed(proxy, master: "/files/vod-ts/master.m3u8", variantPrefix: "/files/vod-ts/", variantCount: 2, mpegts: "126000")
        }
    }

    @Test func thePayloadsChoicesPickTheListedTracksAndTheOnlyDefault() async throws {
        try await withProxy(SignedRouteTests.config, environment: Self.environment) { proxy in
            let token = Self.token(master: "/origin/vod-ts/master.m3u8", tracks: [Self.english, Self.french, Self.german],
                                   subtitles: ["fr", "zz", "en"], defaultTrack: "fr")
            let master = try await proxy.get(Self.master(token))
            #expect(master.status == 200)
            // In the token's order; the unknown "zz" ignored; en loses its DEFAULT to fr (RFC 8216: one at most).
            #expect(Self.languages(master) == ["en", "fr"])
            #expect(subtitleRenditions(master).filter { $0.contains("DEFAULT=YES") }.count == 1)
            #expect(subtitleRenditions(master).contains { $0.contains("LANGUAGE=\"fr\"") && $0.contains("DEFAULT=YES,AUTOSELECT=YES") })
            // A track the token carries but does not list is not served either.
            let unlisted = try await proxy.get(SignedURL.path(token: token, resource: .subtitle(trackID: "de", .playlist)))
            #expect(unlisted.status == 404)
            // The request's own choices narrow the token's list further, and never widen it.
            let narrowed = try await proxy.get(Self.master(token) + "?hls_proxy_subtitles=fr,de")
            #expect(Self.languages(narrowed) == ["fr"])
        }
    }

    @Test func aDefaultNamingNoTrackKeepsTheTracksOwnFlags() async throws {
        try await withProxy(SignedRouteTests.config, environment: Self.environment) { proxy in
            let master = try await proxy.get(Self.master(Self.token(master: "/origin/vod-ts/master.m3u8", subtitles: ["xx"], defaultTrack: "xx")))
            #expect(Self.languages(master) == ["en", "fr"])
            #expect(subtitleRenditions(master).filter { $0.contains("DEFAULT=YES") }.map { $0.contains("LANGUAGE=\"en\"") } == [true])
        }
    }

    @Test func theRewrittenMasterIsCachedUnderItsTokenNeverSharedWithThePlainMaster() async throws {
        // A master TTL no loaded run can outlast: the test is about sharing, not about expiry.
        let config = SignedRouteTests.config.replacingOccurrences(
            of: #""timeouts": {"#, with: #""cache": { "master_ttl_seconds": 3600 }, "timeouts": {"#)
        try await withProxy(config, environment: Self.environment) { proxy in
            let path = "/origin/vod-ts/master.m3u8"
            let plain = try await proxy.get(path)
            #expect(Self.languages(plain) == ["en", "fr", "es"])
            let first = try await proxy.get(Self.master(Self.token(master: path)))
            #expect(Self.languages(first) == ["en", "fr"])
            let other = try await proxy.get(Self.master(Self.token(master: path, tracks: [Self.german])))
            #expect(Self.languages(other) == ["de"])
            #expect(Self.languages(try await proxy.get(path)) == ["en", "fr", "es"])
            #expect(Self.languages(try await proxy.get(Self.master(Self.token(master: path)))) == ["en", "fr"])
            // The origin master was fetched once: the origin body is shared, the rewrites are not.
            #expect(proxy.origin.hits("/vod-ts/master.m3u8") == 1)
        }
    }

    /// The source `http://subs.test:{port}/...` (127.0.0.1, not the mount's origin by name) in a token.
    static func privateSourceToken(_ proxy: ProxyHarness) -> String {
        Self.token(master: "/origin/vod-ts/master.m3u8", tracks: [.object([
            "language": .string("en"), "name": .string("English"), "source": .string("http://subs.test:\(proxy.origin.port)/subtitles/en.vtt"),
        ])])
    }

    @Test func aSignedSourceOnAPrivateAddressIsRefusedAtFetchEvenWithItsAddressOnTheAllowlist() async throws {
        // The standard config lists 127.0.0.1 on embedded.allow_hosts: that opens it to embedded masters, not to tokens.
        try await withProxy(SignedRouteTests.config, environment: Self.environment, resolver: Self.resolver) { proxy in
            let token = Self.privateSourceToken(proxy)
            #expect(try await proxy.get(Self.master(token)).status == 200)
            let segment = try await proxy.get(SignedURL.path(token: token, resource: .subtitle(trackID: "en", .segment(0))))
            #expect(segment.status == 200)
            #expect(segment.text.hasPrefix("WEBVTT"))
            #expect(SubtitleRouteTests.timingLines(segment.text).isEmpty)
            #expect(proxy.origin.hits("/subtitles/en.vtt") == 0)
            #expect(proxy.logLines.contains {
                $0.contains("subtitle source unusable") && $0.contains("\"set\":\"signed\"") && $0.contains("\"reason\":\"unreachable\"")
                    && $0.contains("private address")
            })
        }
    }

    /// `config` (embedded as given) with the header-injecting mount's base URL at `ORIGIN/vod-ts` and the other
    /// mount of that origin at `ORIGIN/vod-fmp4`, so `ORIGIN/subtitles/...` is on their host but under neither.
    static func basePathConfig(embedded: String) -> String {
        config(embedded: embedded)
            .replacingOccurrences(of: #""origin": { "origin": "ORIGIN", "forward_headers""#, with: #""origin": { "origin": "ORIGIN/vod-ts", "forward_headers""#)
            .replacingOccurrences(of: #""proxied": { "origin": "ORIGIN","#, with: #""proxied": { "origin": "ORIGIN/vod-fmp4","#)
    }

    static func offBaseSourceToken(_ proxy: ProxyHarness) -> String {
        Self.token(master: "/origin/master.m3u8", tracks: [.object([
            "language": .string("en"), "name": .string("English"), "source": .string("http://127.0.0.1:\(proxy.origin.port)/subtitles/en.vtt"),
        ])])
    }

    @Test func aSignedSourceOnTheMountsHostOutsideItsBasePathIsAddressCheckedLikeAnyOther() async throws {
        let config = Self.basePathConfig(embedded: #""allow_hosts": ["127.0.0.1"]"#)
        try await withProxy(config, environment: Self.environment, resolver: Self.resolver) { proxy in
            let token = Self.offBaseSourceToken(proxy)
            let segment = try await proxy.get(SignedURL.path(token: token, resource: .subtitle(trackID: "en", .segment(0))))
            #expect(SubtitleRouteTests.timingLines(segment.text).isEmpty)
            #expect(proxy.origin.hits("/subtitles/en.vtt") == 0)
            #expect(proxy.logLines.contains { $0.contains("subtitle source unusable") && $0.contains("private address") })
        }
    }

    @Test func aSignedSourceOnTheMountsHostOutsideItsBasePathGetsNoInjectedHeader() async throws {
        let config = Self.basePathConfig(embedded: #""allow_hosts": ["127.0.0.1"], "allow_private_networks": true"#)
        try await withProxy(config, environment: Self.environment, resolver: Self.resolver) { proxy in
            let token = Self.offBaseSourceToken(proxy)
            let segment = try await proxy.get(SignedURL.path(token: token, resource: .subtitle(trackID: "en", .segment(0))))
            #expect(SubtitleRouteTests.timingLines(segment.text).first == "00:00:00.500 --> 00:00:02.500")
            #expect(proxy.origin.hits("/subtitles/en.vtt") == 1)
            #expect(proxy.origin.lastHeaders("/subtitles/en.vtt")?["X-Origin-Token"] == nil)
        }
    }

    @Test func withAllowPrivateNetworksASignedSourceOnAPrivateAddressIsFetchedFromTheAddressChecked() async throws {
        let config = Self.config(embedded: #""allow_hosts": ["127.0.0.1"], "allow_private_networks": true"#)
        let lookups = Atomic<Int>(0)
        let counting = HostResolver { host throws(HTTPClientError) in
            if host == "subs.test" { lookups.add(1, ordering: .relaxed) }
            return try Self.resolver.addresses(of: host)
        }
        try await withProxy(config, environment: Self.environment, resolver: counting) { proxy in
            let token = Self.privateSourceToken(proxy)
            let segment = try await proxy.get(SignedURL.path(token: token, resource: .subtitle(trackID: "en", .segment(0))))
            #expect(SubtitleRouteTests.timingLines(segment.text).first == "00:00:00.500 --> 00:00:02.500")
            #expect(proxy.origin.hits("/subtitles/en.vtt") == 1)
            // One lookup, for the check: the connect goes to the addresses checked (DNS rebinding).
            #expect(lookups.load(ordering: .relaxed) == 1)
        }
    }

    @Test func aRedirectOfASignedSourceIntoPrivateSpaceIsRefusedWhereAConfiguredOnesIsFollowed() async throws {
        let config = SignedRouteTests.config.replacingOccurrences(of: #""source": "/subtitles/en.vtt" }"#, with: #""source": "/subtitles/moved.vtt" }"#)
        try await withProxy(config, environment: Self.environment, resolver: Self.resolver) { proxy in
            proxy.origin.setFault("/subtitles/moved.vtt", .redirect("http://subs.test:\(proxy.origin.port)/subtitles/en.vtt"))
            // The configured track follows the redirect (127.0.0.1 is listed for configured and embedded fetches).
            let configured = try await SubtitleRouteTests.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: "en")
            let configuredSegment = try await proxy.get(SubtitleRouteTests.sibling(configured, "0.vtt"))
            #expect(SubtitleRouteTests.timingLines(configuredSegment.text).first == "00:00:00.500 --> 00:00:02.500")
            #expect(proxy.origin.hits("/subtitles/en.vtt") == 1)
            // The same redirect from a token's source on the mount's origin is refused at the hop.
            let token = Self.token(master: "/origin/vod-ts/master.m3u8", tracks: [.object([
                "language": .string("en"), "name": .string("English"), "source": .string("/subtitles/moved.vtt"),
            ])])
            let segment = try await proxy.get(SignedURL.path(token: token, resource: .subtitle(trackID: "en", .segment(0))))
            #expect(segment.status == 200)
            #expect(SubtitleRouteTests.timingLines(segment.text).isEmpty)
            #expect(proxy.origin.hits("/subtitles/en.vtt") == 1)
            #expect(proxy.logLines.contains { $0.contains("subtitle source unusable") && $0.contains("\"set\":\"signed\"") })
        }
    }

    @Test func aTokensOptionalTracksAreProbedUnderTheSignedAddressRules() async throws {
        try await withProxy(SignedRouteTests.config, environment: Self.environment, resolver: Self.resolver) { proxy in
            let token = Self.token(master: "/origin/vod-ts/master.m3u8", tracks: [
                .object(["language": .string("en"), "name": .string("English"), "source": .string("/subtitles/en.vtt"), "optional": .bool(true)]),
                .object(["language": .string("de"), "name": .string("Deutsch"), "source": .string("/subtitles/none.vtt"), "optional": .bool(true)]),
                .object(["language": .string("fr"), "name": .string("Français"), "optional": .bool(true),
                         "source": .string("http://subs.test:\(proxy.origin.port)/subtitles/fr.vtt")]),
            ])
            let master = try await proxy.get(Self.master(token))
            #expect(master.status == 200)
            // en exists; de answers 404; fr is on a private address a token may not reach, so never asked.
            #expect(Self.languages(master) == ["en"])
            #expect(proxy.origin.hits("/subtitles/none.vtt") == 1)
            #expect(proxy.origin.hits("/subtitles/fr.vtt") == 0)
            #expect(proxy.logLines.contains { $0.contains("optional track source probe failed") && $0.contains("\"track\":\"fr\"") })
        }
    }

    @Test func aTokenWhoseMasterIsAMediaPlaylistPassesItOnWithItsURIsAtItsOwnPath() async throws {
        try await withProxy(SignedRouteTests.config, environment: Self.environment) { proxy in
            let response = try await proxy.get(Self.master(Self.token(master: "/proxied/vod-fmp4/index.m3u8")))
            #expect(response.status == 200)
            #expect(response.header("X-HLS-Proxy-Route") == "playlist")
            #expect(subtitleRenditions(response).isEmpty)
            // Relative to the signed URL these would land under the token; they name the playlist's own directory.
            #expect(response.text.contains(#"#EXT-X-MAP:URI="/proxied/vod-fmp4/init.mp4""#))
            #expect(Self.variants(response) == ["/proxied/vod-fmp4/seg000.m4s", "/proxied/vod-fmp4/seg001.m4s", "/proxied/vod-fmp4/seg002.m4s"])
            #expect(try await proxy.get("/proxied/vod-fmp4/seg000.m4s").status == 200)
        }
    }
}
