import Foundation
@testable import Proxy
import TestSupport
import Testing

/// IPv6 literals in the embedded form: `/http/[::1]:port/...` against an allowlist entry written `[::1]`,
/// connected over IPv6, under the same SSRF policy as IPv4 (a private address passes only when listed as
/// a literal or with `allow_private_networks`).
// Serialized: each case starts a proxy (and most an origin), so they run one at a time.
@Suite(.serialized) struct HardeningIPv6EmbeddedTests {
    static let master = HardeningSSRFTests.master

    static func v6Origin() throws -> TestOrigin {
        try TestOrigin(routes: ["/master.m3u8": .raw(TestOrigin.response(status: 200, body: master))], ipv6: true)
    }

    /// Masters are `*.m3u8` only, so other paths in the embedded form are redirected, not fetched.
    static func config(allowHosts: [String], allowPrivate: Bool? = nil, mountOrigin: String? = nil) -> String {
        let hosts = allowHosts.map { "\"\($0)\"" }.joined(separator: ", ")
        let flag = allowPrivate.map { #", "allow_private_networks": \#($0)"# } ?? ""
        let mounts = mountOrigin.map { #""m": { "origin": "\#($0)" }"# } ?? ""
        return """
            { "mounts": { \(mounts) }, "embedded": { "allow_hosts": [\(hosts)]\(flag) },
              "subtitles": [ { "name": "s", "masters": ["*.m3u8"],
                "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "/none.vtt" } ] } ],
              "timeouts": { "origin_seconds": 5 } }
            """
    }

    @Test func anAllowlistedIPv6LiteralWithAPortIsFetchedOverIPv6WhenPrivateNetworksAreAllowed() async throws {
        let origin = try Self.v6Origin()
        defer { origin.stop() }
        try await withProxy(Self.config(allowHosts: ["[::1]"], allowPrivate: true)) { proxy in
            let response = try await proxy.get("/http/[::1]:\(origin.port)/master.m3u8")
            #expect(response.status == 200, "\(response.status) \(response.text)")
            #expect(response.text.contains("TYPE=SUBTITLES"))
        }
        let seen = origin.requests(path: "/master.m3u8")
        #expect(seen.count == 1)
        #expect(seen.first?.headers["Host"] == "[::1]:\(origin.port)")
    }

    @Test func anIPv6LiteralWrittenInFullMatchesItsCompressedAllowlistEntry() async throws {
        let origin = try Self.v6Origin()
        defer { origin.stop() }
        try await withProxy(Self.config(allowHosts: ["[::1]"], allowPrivate: true)) { proxy in
            let response = try await proxy.get("/http/[0:0:0:0:0:0:0:1]:\(origin.port)/master.m3u8")
            #expect(response.status == 200, "\(response.status) \(response.text)")
        }
        #expect(origin.requests(path: "/master.m3u8").count == 1)
    }

    @Test func anAllowlistedIPv6LiteralWithoutAPortRedirectsToTheDefaultPort() async throws {
        try await withProxy(Self.config(allowHosts: ["[::1]"], allowPrivate: true)) { proxy in
            let response = try await proxy.get("/http/[::1]/v0/seg.ts?t=1")
            #expect(response.status == 302, "\(response.status) \(response.text)")
            #expect(response.header("Location") == "http://[::1]/v0/seg.ts?t=1")
        }
    }

    /// Listing the literal is the operator's consent, exactly as listing `127.0.0.1` is.
    @Test func aListedIPv6LoopbackLiteralPassesWithoutAllowPrivateNetworksLikeAListedIPv4One() async throws {
        let origin = try Self.v6Origin()
        defer { origin.stop() }
        try await withProxy(Self.config(allowHosts: ["[::1]"])) { proxy in
            let response = try await proxy.get("/http/[::1]:\(origin.port)/master.m3u8")
            #expect(response.status == 200, "\(response.status) \(response.text)")
        }
        #expect(origin.requests(path: "/master.m3u8").count == 1)
    }

    @Test func anIPv6LiteralThatIsNotOnTheAllowlistIsRefusedWith403() async throws {
        let origin = try Self.v6Origin()
        defer { origin.stop() }
        try await withProxy(Self.config(allowHosts: ["127.0.0.1", "[::2]"], allowPrivate: true)) { proxy in
            let response = try await proxy.get("/http/[::1]:\(origin.port)/master.m3u8")
            #expect(response.status == 403, "\(response.status) \(response.text)")
            #expect(response.text.contains("[::1] is not on the embedded allowlist"))
        }
        #expect(origin.requests().isEmpty)
    }

    @Test func aRedirectHopToIPv6LoopbackNeedsAllowPrivateNetworks() async throws {
        let target = try Self.v6Origin()
        defer { target.stop() }
        let first = try TestOrigin(routes: [
            "/master.m3u8": TestOrigin.redirect(to: "http://[::1]:\(target.port)/master.m3u8"),
        ])
        defer { first.stop() }
        try await withProxy(Self.config(allowHosts: ["127.0.0.1"], mountOrigin: first.url(""))) { proxy in
            let response = try await proxy.get("/m/master.m3u8")
            #expect(response.status == 502, "\(response.status) \(response.text)")
        }
        #expect(target.requests().isEmpty)
        try await withProxy(Self.config(allowHosts: ["127.0.0.1"], allowPrivate: true, mountOrigin: first.url(""))) { proxy in
            let response = try await proxy.get("/m/master.m3u8")
            #expect(response.status == 200, "\(response.status) \(response.text)")
        }
        #expect(target.requests(path: "/master.m3u8").count == 1)
    }

    @Test(arguments: [
        "[::1", "[::1]x", "[::1]:", "[::1]:0", "[::1]:65536", "[::1]:80a", "[]", "[::g]", "[fe80::1%25eth0]", "[::1]]",
        "::1", "[1.2.3.4]", "[:::]", "[::1]:8080:1", "x[::1]", "[[::1]]",
    ])
    func malformedIPv6AuthoritiesAreRefusedWith400(authority: String) async throws {
        try await withProxy(Self.config(allowHosts: ["[::1]", "127.0.0.1"], allowPrivate: true)) { proxy in
            let response = try await proxy.get("/http/\(authority)/master.m3u8")
            #expect(response.status == 400, "\(authority) -> \(response.status) \(response.text)")
        }
    }

    @Test func aBareIPv6AllowlistEntryIsRefusedAtLoadWithItsBracketedSpelling() {
        let problems = ConfigTestSupport.problems(#"{ "embedded": { "allow_hosts": ["::1", "[::1]:8080", "[::g]"] } }"#)
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.first?.contains(#"write it in brackets, as in a URL ("[::1]")"#) == true, "\(problems)")
    }

    @Test func ipv6AllowlistEntriesMatchTheSameAddressHoweverWritten() throws {
        let pattern = try #require(HostPattern("[::1]"))
        #expect(pattern.matches("[::1]"))
        #expect(pattern.matches("::1"))  // URL parsers give the host without brackets
        #expect(pattern.matches("[0:0:0:0:0:0:0:1]"))
        #expect(!pattern.matches("[::2]"))
        #expect(!pattern.matches("localhost"))
        #expect(!pattern.matches("127.0.0.1"))
        #expect(HostPattern("[::g]") == nil)
        #expect(HostPattern("[1.2.3.4]") == nil)
    }
}
