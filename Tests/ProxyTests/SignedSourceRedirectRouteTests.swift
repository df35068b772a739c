import Foundation
import HTTPClient
import TestSupport
import Testing
@testable import Proxy

/// A signed token's source that redirects: a hop counts as the mount's (no address check, its injected
/// fields) only under the mount's base URL, as the first hop does, never merely on the mount's host.
@Suite(.timeLimit(.minutes(1))) struct SignedSourceRedirectRouteTests {
    typealias Playback = SignedPlaybackRouteTests

    static let vtt = Array("WEBVTT\n\n00:00:00.500 --> 00:00:02.500\nMoved inside the base\n".utf8)

    /// A token for the "origin" mount's master (base URL `ORIGIN/vod-ts`) with one English track whose
    /// source is `ORIGIN/vod-ts/subs/en.vtt`, inside the base: the fixture origin redirects it.
    static func token(_ proxy: ProxyHarness) -> String {
        Playback.token(master: "/origin/master.m3u8", tracks: [.object([
            "language": .string("en"), "name": .string("English"), "source": .string(proxy.origin.baseURL + "/vod-ts/subs/en.vtt"),
        ])])
    }

    static func firstSegment(_ proxy: ProxyHarness, _ token: String) async throws -> RawResponse {
        try await proxy.get(SignedURL.path(token: token, resource: .subtitle(trackID: "en", .segment(0))))
    }

    @Test(arguments: ["/subtitles/en.vtt", "/vod-ts/../subtitles/en.vtt", "/vod-ts/%2e%2e/subtitles/en.vtt", "/vod-ts-other/en.vtt"])
    func aRedirectOntoTheMountsHostOutsideItsBasePathIsAddressCheckedAndRefused(location: String) async throws {
        // Loopback is a private address here: only the mount's own base URL may reach it unchecked.
        let config = Playback.basePathConfig(embedded: #""allow_hosts": ["127.0.0.1"]"#)
        try await withProxy(config, environment: Playback.environment) { proxy in
            proxy.origin.setFault("/vod-ts/subs/en.vtt", .redirect(proxy.origin.baseURL + location))
            let segment = try await Self.firstSegment(proxy, Self.token(proxy))
            #expect(segment.status == 200)
            #expect(SubtitleRouteTests.timingLines(segment.text).isEmpty)
            #expect(proxy.origin.hits("/vod-ts/subs/en.vtt") == 1)
            // The origin sees a percent-encoded path decoded.
            for path in ["/subtitles/en.vtt", location, location.removingPercentEncoding ?? location, "/vod-ts-other/en.vtt"] { #expect(proxy.origin.hits(path) == 0, "\(path)") }
            #expect(proxy.logLines.contains { $0.contains("subtitle source unusable") })
        }
    }

    @Test func aRedirectOntoTheMountsHostOutsideItsBasePathGetsNoneOfTheMountsInjectedHeaders() async throws {
        let config = Playback.basePathConfig(embedded: #""allow_hosts": ["127.0.0.1"], "allow_private_networks": true"#)
        try await withProxy(config, environment: Playback.environment) { proxy in
            proxy.origin.setFault("/vod-ts/subs/en.vtt", .redirect(proxy.origin.baseURL + "/subtitles/en.vtt"))
            let segment = try await Self.firstSegment(proxy, Self.token(proxy))
            #expect(SubtitleRouteTests.timingLines(segment.text).first == "00:00:00.500 --> 00:00:02.500")
            // The first hop is under the base and gets the mount's field; the hop outside it does not.
            #expect(proxy.origin.lastHeaders("/vod-ts/subs/en.vtt")?["X-Origin-Token"] == "secret-token")
            #expect(proxy.origin.hits("/subtitles/en.vtt") == 1)
            #expect(proxy.origin.lastHeaders("/subtitles/en.vtt")?["X-Origin-Token"] == nil)
        }
    }

    @Test func aRedirectInsideTheMountsBasePathIsFollowedWithTheMountsHeaders() async throws {
        let config = Playback.basePathConfig(embedded: #""allow_hosts": ["127.0.0.1"]"#)
        try await withProxy(config, environment: Playback.environment) { proxy in
            proxy.origin.setFault("/vod-ts/subs/en.vtt", .redirect(proxy.origin.baseURL + "/vod-ts/subs/moved/en.vtt"))
            proxy.origin.setFault("/vod-ts/subs/moved/en.vtt", .body(Self.vtt, contentType: "text/vtt"))
            let segment = try await Self.firstSegment(proxy, Self.token(proxy))
            #expect(SubtitleRouteTests.timingLines(segment.text).first == "00:00:00.500 --> 00:00:02.500")
            #expect(segment.text.contains("Moved inside the base"))
            #expect(proxy.origin.lastHeaders("/vod-ts/subs/moved/en.vtt")?["X-Origin-Token"] == "secret-token")
        }
    }

    // MARK: Encoded dot segments

    /// Spellings of a parent segment that some origins decode or read as `..`: none is "under the base".
    static let encodedParents = ["..%2f", "..%2F", "%2e%2e%2f", "..%5c", "..;/", "..%09/"]

    /// A token whose English source is `ORIGIN/vod-ts/<spelling>admin/en.vtt`.
    static func encodedParentToken(_ proxy: ProxyHarness, _ spelling: String) -> String {
        Playback.token(master: "/origin/master.m3u8", tracks: [.object([
            "language": .string("en"), "name": .string("English"), "source": .string(proxy.origin.baseURL + "/vod-ts/\(spelling)admin/en.vtt"),
        ])])
    }

    @Test(arguments: encodedParents)
    func aSourceWithAnEncodedParentSegmentIsAddressCheckedAndRefused(spelling: String) async throws {
        let config = Playback.basePathConfig(embedded: #""allow_hosts": ["127.0.0.1"]"#)
        try await withProxy(config, environment: Playback.environment) { proxy in
            let segment = try await Self.firstSegment(proxy, Self.encodedParentToken(proxy, spelling))
            #expect(SubtitleRouteTests.timingLines(segment.text).isEmpty)
            #expect(proxy.logLines.contains { $0.contains("subtitle source unusable") && $0.contains("private address") })
        }
    }

    @Test(arguments: encodedParents)
    func aSourceWithAnEncodedParentSegmentGetsNoneOfTheMountsInjectedHeaders(spelling: String) async throws {
        let config = Playback.basePathConfig(embedded: #""allow_hosts": ["127.0.0.1"], "allow_private_networks": true"#)
        try await withProxy(config, environment: Playback.environment) { proxy in
            let seen = "/vod-ts/\(spelling)admin/en.vtt".removingPercentEncoding ?? ""
            proxy.origin.setFault(seen, .body(Self.vtt, contentType: "text/vtt"))
            let segment = try await Self.firstSegment(proxy, Self.encodedParentToken(proxy, spelling))
            // The fetch reached the origin (the cue is there), without the mount's field.
            #expect(segment.text.contains("Moved inside the base"))
            #expect(proxy.origin.hits(seen) == 1)
            #expect(proxy.origin.lastHeaders(seen)?["X-Origin-Token"] == nil)
        }
    }

    @Test(arguments: encodedParents)
    func aRedirectToAnEncodedParentSegmentIsAddressCheckedAndRefused(spelling: String) async throws {
        let config = Playback.basePathConfig(embedded: #""allow_hosts": ["127.0.0.1"]"#)
        try await withProxy(config, environment: Playback.environment) { proxy in
            proxy.origin.setFault("/vod-ts/subs/en.vtt", .redirect(proxy.origin.baseURL + "/vod-ts/\(spelling)admin/en.vtt"))
            let seen = "/vod-ts/\(spelling)admin/en.vtt".removingPercentEncoding ?? ""
            proxy.origin.setFault(seen, .body(Self.vtt, contentType: "text/vtt"))
            let segment = try await Self.firstSegment(proxy, Self.token(proxy))
            #expect(SubtitleRouteTests.timingLines(segment.text).isEmpty)
            #expect(proxy.origin.hits("/vod-ts/subs/en.vtt") == 1)
            #expect(proxy.origin.hits(seen) == 0)
        }
    }

    @Test(arguments: encodedParents)
    func aRedirectToAnEncodedParentSegmentGetsNoneOfTheMountsInjectedHeaders(spelling: String) async throws {
        let config = Playback.basePathConfig(embedded: #""allow_hosts": ["127.0.0.1"], "allow_private_networks": true"#)
        try await withProxy(config, environment: Playback.environment) { proxy in
            proxy.origin.setFault("/vod-ts/subs/en.vtt", .redirect(proxy.origin.baseURL + "/vod-ts/\(spelling)admin/en.vtt"))
            let seen = "/vod-ts/\(spelling)admin/en.vtt".removingPercentEncoding ?? ""
            proxy.origin.setFault(seen, .body(Self.vtt, contentType: "text/vtt"))
            let segment = try await Self.firstSegment(proxy, Self.token(proxy))
            #expect(segment.text.contains("Moved inside the base"))
            #expect(proxy.origin.lastHeaders("/vod-ts/subs/en.vtt")?["X-Origin-Token"] == "secret-token")
            #expect(proxy.origin.hits(seen) == 1)
            #expect(proxy.origin.lastHeaders(seen)?["X-Origin-Token"] == nil)
        }
    }
}
