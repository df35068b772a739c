import Foundation
import HTTPClient
import HTTPServer
@testable import Proxy
import TestSupport
import Testing

/// SSRF: names on the allowlist are vetted by the addresses they resolve to, and so is every
/// redirect hop that leaves the configured mount origins.
@Suite struct HardeningSSRFTests {
    static let master = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nv.m3u8\n".utf8)

    static func config(allowHosts: [String], allowPrivate: Bool? = nil, mountOrigin: String? = nil) -> String {
        let hosts = allowHosts.map { "\"\($0)\"" }.joined(separator: ", ")
        let flag = allowPrivate.map { #", "allow_private_networks": \#($0)"# } ?? ""
        let mounts = mountOrigin.map { #""m": { "origin": "\#($0)" }"# } ?? ""
        return """
            { "mounts": { \(mounts) }, "embedded": { "allow_hosts": [\(hosts)]\(flag) },
              "subtitles": [ { "name": "s", "masters": ["/http/*", "/m/*"],
                "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "/none.vtt" } ] } ],
              "timeouts": { "origin_seconds": 2 } }
            """
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("10.1.2.3", true), ("100.64.0.1", true), ("100.127.255.255", true), ("172.16.0.1", true),
        ("172.31.255.255", true), ("192.168.1.1", true), ("169.254.169.254", true), ("0.0.0.0", true), ("0.1.2.3", true),
        ("224.0.0.1", true), ("255.255.255.255", true), ("::1", true), ("::", true), ("fc00::1", true), ("fd12:3456::1", true),
        ("fe80::1", true), ("febf::1", true), ("ff02::1", true), ("::ffff:127.0.0.1", true), ("::ffff:10.0.0.1", true),
        ("64:ff9b::a9fe:a9fe", true),
        ("8.8.8.8", false), ("100.63.255.255", false), ("100.128.0.0", false), ("172.15.255.255", false), ("172.32.0.0", false),
        ("192.169.0.1", false), ("169.253.1.1", false), ("2606:4700::1111", false), ("::ffff:8.8.8.8", false), ("fec0::1", true),
    ])
    func internalAddressRangesAreRecognized(literal: String, isInternal: Bool) throws {
        let address = try #require(IPAddress(literal))
        #expect(OriginAddressPolicy.isInternal(address) == isInternal, "\(literal)")
    }

    @Test func ipAddressLiteralsParseAndPrint() throws {
        #expect(try #require(IPAddress("[fe80::1]")).description == "fe80::1")
        #expect(try #require(IPAddress("10.0.0.1")).bytes == [10, 0, 0, 1])
        #expect(IPAddress("localhost") == nil)
        #expect(IPAddress("1.2.3") == nil)
        #expect(IPAddress("2130706433") == nil)
    }

    @Test func theResolverGivesLoopbackForLocalhostAndNumericFormsForLiterals() throws {
        let addresses = try HostResolver.system.addresses(of: "localhost")
        #expect(!addresses.isEmpty)
        #expect(addresses.allSatisfy(OriginAddressPolicy.isInternal))
        // A decimal IPv4 form is a different name for 127.0.0.1: the address check sees through it.
        #expect(try HostResolver.system.addresses(of: "2130706433").map(\.description) == ["127.0.0.1"])
    }

    @Test func anAllowlistedNameResolvingToLoopbackIsRefused() async throws {
        let origin = try TestOrigin(routes: ["/master.m3u8": .raw(TestOrigin.response(status: 200, body: Self.master))])
        defer { origin.stop() }
        for host in ["localhost", "2130706433"] {
            try await withProxy(Self.config(allowHosts: [host])) { proxy in
                let response = try await proxy.get("/http/\(host):\(origin.port)/master.m3u8")
                #expect(response.status == 403, "\(host)")
                #expect(response.text.contains("resolves to 127.0.0.1"), "\(response.text)")
            }
        }
        #expect(origin.requests().isEmpty)
    }

    @Test func privateAddressesPassWhenAllowedExplicitly() async throws {
        let origin = try TestOrigin(routes: ["/master.m3u8": .raw(TestOrigin.response(status: 200, body: Self.master))])
        defer { origin.stop() }
        for json in [Self.config(allowHosts: ["localhost"], allowPrivate: true),
                     Self.config(allowHosts: ["localhost", "127.0.0.1", "[::1]"])] {
            try await withProxy(json) { proxy in
                let response = try await proxy.get("/http/localhost:\(origin.port)/master.m3u8")
                #expect(response.status == 200)
                #expect(response.text.contains("TYPE=SUBTITLES"))
            }
        }
        #expect(origin.requests(path: "/master.m3u8").count == 2)
    }

    @Test func redirectHopsAreJudgedByTheAddressesTheirNameResolvesTo() throws {
        func policy(_ hosts: [String], allowPrivate: Bool = false) throws -> OriginAddressPolicy {
            OriginAddressPolicy(ProxyConfig.EmbeddedOrigins(
                allowHosts: try hosts.map { try #require(HostPattern($0)) }, allowPrivateNetworks: allowPrivate))
        }
        #expect(try !policy(["localhost"]).checkBlocking(host: "localhost"))
        #expect(try !policy(["localhost"]).checkBlocking(host: "no-such-host.invalid"))
        #expect(try policy(["localhost"], allowPrivate: true).checkBlocking(host: "localhost"))
        // Listing the address itself is the explicit allowance: any name resolving to it passes.
        #expect(try policy(["localhost", "127.0.0.1"]).checkBlocking(host: "localhost"))
    }

    @Test func anEmbeddedRedirectHopOffTheAllowlistIsRefused() async throws {
        let target = try TestOrigin(routes: ["/inner.m3u8": .raw(TestOrigin.response(status: 200, body: Self.master))])
        defer { target.stop() }
        let origin = try TestOrigin(routes: ["/master.m3u8": TestOrigin.redirect(to: "http://localhost:\(target.port)/inner.m3u8")])
        defer { origin.stop() }
        try await withProxy(Self.config(allowHosts: ["127.0.0.1"])) { proxy in
            let response = try await proxy.get("/http/127.0.0.1:\(origin.port)/master.m3u8")
            #expect(response.status == 502)
            #expect(response.text.contains("redirect"))
        }
        #expect(target.requests().isEmpty)
    }

    @Test func aMountOriginCannotRedirectTheProxyIntoTheLocalNetwork() async throws {
        let target = try TestOrigin(routes: ["/admin.m3u8": .raw(TestOrigin.response(status: 200, body: Self.master))])
        defer { target.stop() }
        let origin = try TestOrigin(routes: [
            "/master.m3u8": TestOrigin.redirect(to: "http://localhost:\(target.port)/admin.m3u8"),
            "/same.m3u8": TestOrigin.redirect(to: "/v/master.m3u8"),
            "/v/master.m3u8": .raw(TestOrigin.response(status: 200, body: Self.master)),
        ])
        defer { origin.stop() }
        try await withProxy(Self.config(allowHosts: [], mountOrigin: origin.url(""))) { proxy in
            let response = try await proxy.get("/m/master.m3u8")
            #expect(response.status == 502)
            // A hop within the mount's own origin is the operator's choice and still followed.
            #expect(try await proxy.get("/m/same.m3u8").status == 200)
        }
        #expect(target.requests().isEmpty)
    }

    @Test func allowPrivateNetworksIsDecodedAndValidated() throws {
        let on = try ProxyConfig.decode(Array(#"{"embedded": {"allow_hosts": ["a.example"], "allow_private_networks": true}}"#.utf8), environment: [:])
        #expect(on.embedded.allowPrivateNetworks)
        let off = try ProxyConfig.decode(Array(#"{"embedded": {"allow_hosts": ["a.example"]}}"#.utf8), environment: [:])
        #expect(!off.embedded.allowPrivateNetworks)
        #expect(throws: ConfigError.self) {
            try ProxyConfig.decode(Array(#"{"embedded": {"allow_private_networks": "yes"}}"#.utf8), environment: [:])
        }
    }
}
