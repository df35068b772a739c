import Foundation
import HTTPServer
@testable import Proxy
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct OriginClientFileTests {
    let subtitles = Fixtures.directory.appendingPathComponent("subtitles")

    @Test func aFileURLIsReadWhole() async throws {
        let path = subtitles.appendingPathComponent("en.vtt").path
        let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let response = try await makeTestClient().fetch(OriginRequest(url: "file://" + path, maxBodyBytes: 1 << 20))
        #expect(response.status == 200)
        #expect(response.body == expected)
        #expect(response.headers["Content-Length"] == String(expected.count))
        #expect(response.finalURL == "file://" + path)
    }

    @Test func percentEncodedPathsAreDecodedAndLocalhostAccepted() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("origin client \(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("WEBVTT\n".utf8).write(to: directory.appendingPathComponent("a b.vtt"))
        let encoded = directory.appendingPathComponent("a b.vtt").path.replacingOccurrences(of: " ", with: "%20")
        let response = try await makeTestClient().fetch(OriginRequest(url: "file://localhost" + encoded, maxBodyBytes: 100))
        #expect(response.body == Array("WEBVTT\n".utf8))
    }

    @Test func aMissingFileIsNotFound() async throws {
        let error = await #expect(throws: OriginError.notFoundFile) {
            try await makeTestClient().fetch(OriginRequest(url: "file://" + subtitles.appendingPathComponent("nope.vtt").path, maxBodyBytes: 100))
        }
        #expect(error?.status == .notFound)
    }

    @Test func aDirectoryIsForbidden() async throws {
        let error = await #expect(throws: OriginError.forbiddenFile) {
            try await makeTestClient().fetch(OriginRequest(url: "file://" + subtitles.path, maxBodyBytes: 100))
        }
        #expect(error?.status == .forbidden)
    }

    @Test func aFileOverTheCapIsRefusedFromItsSize() async throws {
        let path = subtitles.appendingPathComponent("long-2h.vtt").path
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        await #expect(throws: OriginError.tooLarge(limit: size - 1)) {
            try await makeTestClient().fetch(OriginRequest(url: "file://" + path, maxBodyBytes: size - 1))
        }
        let exact = try await makeTestClient().fetch(OriginRequest(url: "file://" + path, maxBodyBytes: size))
        #expect(exact.body.count == size)
    }

    @Test func headOnAFileGivesItsLengthWithoutTheBody() async throws {
        let path = subtitles.appendingPathComponent("fr.vtt").path
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let response = try await makeTestClient().fetch(OriginRequest(url: "file://" + path, method: .head, maxBodyBytes: 1 << 20))
        #expect(response.body.isEmpty)
        #expect(response.headers["Content-Length"] == String(size))
    }

    @Test func aFileURLWithARemoteHostIsRefused() async throws {
        await #expect(throws: OriginError.invalidRequest("file URL with a remote host")) {
            try await makeTestClient().fetch(OriginRequest(url: "file://fileserver/etc/hosts", maxBodyBytes: 100))
        }
    }
}
