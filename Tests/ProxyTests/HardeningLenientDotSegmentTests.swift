import Foundation
import TestSupport
import Testing

/// Dot segments that only some origins read as `..`: Tomcat and Jetty cut `;` path parameters, others
/// trim whitespace and controls, Windows servers read `...`, a few fold compatibility dots. Each is
/// refused with 400 before a Location is written or the origin is asked, in every URL form.
// Serialized: each case starts a proxy and an origin, and 87 of them at once starve the timing-sensitive suites.
@Suite(.serialized) struct HardeningLenientDotSegmentTests {
    /// One segment spelling per reading, each of which a lenient origin takes for `..` (or more).
    static let lenientParents = [
        "..;", "..%3b", "..%3B", "%2e%2e%3b", "%2E%2e%3B", "..;jsessionid=0", "..%09", "..%20", "%20..", "%09..%0d",
        "..%0a", "..%7f", "...", "%2e%2e%2e", "..%3f", "..%23", "%2e%2e%20%3bx", ".%20.", "..%C2%A0", "..%E2%80%8B",
        "%EF%BB%BF..", "%EF%BC%8E%EF%BC%8E", "%E2%80%A5", ".%EF%B9%92", "x%2f..%3b", "x%5c..%20",
    ]

    static let secret = Array("SECRET\n".utf8)

    static func origin() throws -> TestOrigin {
        try TestOrigin(routes: [
            "/secret.ts": .raw(TestOrigin.response(status: 200, body: secret)),
            "/streams/ok.ts": .raw(TestOrigin.response(status: 200, body: Array("ok\n".utf8))),
        ])
    }

    static func config(_ origin: TestOrigin) -> String {
        """
        { "mounts": { "r": { "origin": "\(origin.url("/streams"))" },
                      "p": { "origin": "\(origin.url("/streams"))", "segments": "proxy" } },
          "embedded": { "allow_hosts": ["127.0.0.1"] } }
        """
    }

    @Test(arguments: lenientParents)
    func dotSegmentsSomeOriginsReadAsParentGetNoLocationFromARedirectMount(segment: String) async throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        try await withProxy(Self.config(origin)) { proxy in
            #expect(try await proxy.get("/r/ok.ts").status == 302)
            let response = try await proxy.get("/r/\(segment)/secret.ts")
            #expect(response.status == 400, "\(segment) -> \(response.status) \(response.header("Location") ?? "")")
            #expect(response.header("Location") == nil)
        }
        #expect(origin.requests().isEmpty)
    }

    @Test(arguments: lenientParents)
    func dotSegmentsSomeOriginsReadAsParentNeverReachAProxyMountsOrigin(segment: String) async throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        try await withProxy(Self.config(origin)) { proxy in
            #expect(try await proxy.get("/p/ok.ts").status == 200)
            let response = try await proxy.get("/p/\(segment)/secret.ts")
            #expect(response.status == 400, "\(segment) -> \(response.status)")
            #expect(!response.text.contains("SECRET"))
        }
        #expect(origin.requests().map(\.target) == ["/streams/ok.ts"])
    }

    @Test(arguments: lenientParents)
    func dotSegmentsSomeOriginsReadAsParentNeverReachAnEmbeddedOrigin(segment: String) async throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        try await withProxy(Self.config(origin)) { proxy in
            let response = try await proxy.get("/http/127.0.0.1:\(origin.port)/streams/\(segment)/secret.ts")
            #expect(response.status == 400, "\(segment) -> \(response.status)")
            #expect(response.header("Location") == nil)
        }
        #expect(origin.requests().isEmpty)
    }

    @Test func plainDotDotInTheEmbeddedFormIsRefusedAsLeavingThePath() async throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        try await withProxy(Self.config(origin)) { proxy in
            for path in ["/streams/../secret.ts", "/streams/%2e%2E/secret.ts", "/streams/..%2fsecret.ts"] {
                let response = try await proxy.get("/http/127.0.0.1:\(origin.port)\(path)")
                #expect(response.status == 403, "\(path)")
            }
        }
        #expect(origin.requests().isEmpty)
    }

    @Test(arguments: [".;", ".%3b", ".%20", "%2e%09", ".;v=1", "a;..", "..a;", "a..;b", "..x%20"])
    func singleDotsAndNamesWithDotsStillReachTheOrigin(segment: String) async throws {
        let origin = try TestOrigin(routes: [:])
        defer { origin.stop() }
        try await withProxy(Self.config(origin)) { proxy in
            // The origin's own 404 comes back: the proxy sent the request on.
            #expect(try await proxy.get("/p/\(segment)/x.ts").status == 404, "\(segment)")
            let redirect = try await proxy.get("/r/\(segment)/x.ts")
            #expect(redirect.status == 302, "\(segment)")
            #expect(redirect.header("Location") == origin.url("/streams/\(segment)/x.ts"))
        }
        #expect(origin.requests().count == 1)
    }
}
