import Foundation
import TestSupport
import Testing

/// Everything that is not a master or a subtitle: redirects, pass-through, files, embedded URLs.
@Suite struct SegmentAndFileRouteTests {
    @Test func segmentsRedirectToTheOriginWithTheQueryUntouched() async throws {
        try await withProxy { proxy in
            let response = try await proxy.get("/origin/vod-ts/v0/seg000.ts?token=a%2Fb&x=1")
            #expect(response.status == 302)
            #expect(response.header("Location") == "\(proxy.origin.baseURL)/vod-ts/v0/seg000.ts?token=a%2Fb&x=1")
            #expect(response.header("X-HLS-Proxy-Route") == "redirect")
            #expect(response.header("Access-Control-Allow-Origin") == "*")
            #expect(proxy.origin.hits("/vod-ts/v0/seg000.ts") == 0)
        }
    }

    @Test func variantURIsResolveBackThroughTheProxyAndTheirSegmentsRedirect() async throws {
        try await withProxy { proxy in
            // v0/index.m3u8 in the master resolves to /origin/vod-ts/v0/index.m3u8 on the proxy.
            let variant = try await proxy.get("/origin/vod-ts/v0/index.m3u8")
            #expect(variant.status == 302)
            #expect(variant.header("Location") == "\(proxy.origin.baseURL)/vod-ts/v0/index.m3u8")
        }
    }

    @Test func proxyModeStreamsTheBytesThrough() async throws {
        try await withProxy { proxy in
            let original = try #require(FileManager.default.contents(atPath: Fixtures.directory.path + "/vod-ts/v0/seg001.ts"))
            let response = try await proxy.get("/proxied/vod-ts/v0/seg001.ts")
            #expect(response.status == 200)
            #expect(response.body == Array(original))
            #expect(response.header("X-HLS-Proxy-Route") == "proxy")
        }
    }

    @Test func fileMountsServeFilesWithTypeHeadAndRange() async throws {
        try await withProxy { proxy in
            let original = Array(try #require(FileManager.default.contents(atPath: Fixtures.directory.path + "/vod-ts/v0/seg000.ts")))
            let whole = try await proxy.get("/files/vod-ts/v0/seg000.ts")
            #expect(whole.status == 200)
            #expect(whole.body == original)
            #expect(whole.header("Content-Type") == "video/mp2t")
            #expect(whole.header("Accept-Ranges") == "bytes")
            #expect(whole.header("X-HLS-Proxy-Route") == "file")
            let head = try await proxy.get("/files/vod-ts/v0/seg000.ts", method: "HEAD")
            #expect(head.header("Content-Length") == String(original.count))
            #expect(head.body.isEmpty)
            let part = try await proxy.get("/files/vod-ts/v0/seg000.ts", headers: [("Range", "bytes=188-375")])
            #expect(part.status == 206)
            #expect(part.body == Array(original[188...375]))
            #expect(part.header("Content-Range") == "bytes 188-375/\(original.count)")
            let tooFar = try await proxy.get("/files/vod-ts/v0/seg000.ts", headers: [("Range", "bytes=\(original.count)-")])
            #expect(tooFar.status == 416)
            let missing = try await proxy.get("/files/vod-ts/v0/nope.ts")
            #expect(missing.status == 404)
        }
    }

    @Test(arguments: [
        "/files/../Package.swift", "/files/vod-ts/../../Package.swift", "/files/%2e%2e/Package.swift",
        "/files/%2E%2E/%2e%2e/Package.swift", "/files/vod-ts%2f..%2f..%2fPackage.swift", "/files/vod-ts/..%2f..%2fPackage.swift",
    ])
    func fileMountsRefuseTraversal(path: String) async throws {
        try await withProxy { proxy in
            let response = try await proxy.get(path)
            #expect([400, 403, 404].contains(response.status), "\(path) -> \(response.status)")
            #expect(!response.text.contains("swift-tools-version"))
        }
    }

    @Test func fileMountsRefuseSymlinksOutOfTheRoot() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hls-proxy-root-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(atPath: root.path + "/escape", withDestinationPath: "/etc")
        try Data("inside\n".utf8).write(to: root.appendingPathComponent("inside.txt"))
        let config = """
            { "mounts": { "jail": { "origin": "\(root.path)" } } }
            """
        try await withProxy(config) { proxy in
            #expect(try await proxy.get("/jail/inside.txt").text == "inside\n")
            let escaped = try await proxy.get("/jail/escape/hostname")
            #expect(escaped.status == 403)
        }
    }

    @Test func embeddedFormReachesAllowlistedHosts() async throws {
        try await withProxy { proxy in
            let master = try await proxy.get("/http/127.0.0.1:\(proxy.origin.port)/vod-ts/master.m3u8")
            #expect(master.status == 200)
            #expect(master.header("X-HLS-Proxy-Route") == "master")
            #expect(master.text.contains("#EXT-X-MEDIA:TYPE=SUBTITLES"))
            let segment = try await proxy.get("/http/127.0.0.1:\(proxy.origin.port)/vod-ts/v0/seg000.ts?k=v")
            #expect(segment.status == 302)
            #expect(segment.header("Location") == "\(proxy.origin.baseURL)/vod-ts/v0/seg000.ts?k=v")
        }
    }

    @Test(arguments: [
        ("/https/evil.example/x.m3u8", 403), ("/http/localhost:1/x.ts", 403), ("/http/127.0.0.1.evil.example/x", 403),
        ("/http/user@127.0.0.1/x", 400), ("/http/127.0.0.1:99999/x", 400), ("/http//x", 400), ("/https", 400),
    ])
    func embeddedFormRefusesOtherHosts(path: String, status: Int) async throws {
        try await withProxy { proxy in
            let response = try await proxy.get(path)
            #expect(response.status == status, "\(path)")
        }
    }

    @Test func embeddedFormIsOffWithoutAnAllowlist() async throws {
        try await withProxy(#"{ "mounts": {} }"#) { proxy in
            let response = try await proxy.get("/http/127.0.0.1/x.m3u8")
            #expect(response.status == 404)
        }
    }

    @Test func unknownMountsAndMethodsGetTheirStatus() async throws {
        try await withProxy { proxy in
            let unknown = try await proxy.get("/nowhere/x.ts")
            #expect(unknown.status == 404)
            #expect(unknown.text.contains("no mount named"))
            #expect(try await proxy.get("/").status == 404)
            #expect(try await proxy.get("/healthz").text == "ok\n")
        }
    }
}
