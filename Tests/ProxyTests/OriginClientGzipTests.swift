import Foundation
import Glibc
import HTTPServer
@testable import Proxy
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct OriginClientGzipTests {
    /// `printf 'WEBVTT\n\nhello hello hello hello\n' | gzip -9n | xxd -i` (GNU gzip 1.12).
    static let helloGzip: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x0b, 0x77,
        0x75, 0x0a, 0x0b, 0x09, 0xe1, 0xe2, 0xca, 0x48, 0xcd, 0xc9, 0xc9, 0x57,
        0xc0, 0x20, 0xb9, 0x00, 0xc8, 0x2a, 0x2c, 0x4b, 0x20, 0x00, 0x00, 0x00,
    ]

    /// Compresses with the system gzip(1), an independent encoder; nil when it is not installed.
    static func gzip(_ bytes: [UInt8], level: Int) throws -> [UInt8]? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gzip") else { return nil }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gzip-input-\(UUID().uuidString)")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let child = try SpawnedProcess(path: "/usr/bin/gzip", arguments: ["-c", "-n", "-\(level)", file.path], environment: [:])
        close(child.errorFD)
        let data = ChildProcess.readAll(child.outputFD)
        close(child.outputFD)
        _ = child.waitBlocking()
        return data
    }

    @Test func aFixedGzipBodyDecodes() throws {
        let decoded = try GzipDecoder.decode(Self.helloGzip, maxOutputBytes: 100)
        #expect(decoded == Array("WEBVTT\n\nhello hello hello hello\n".utf8))
    }

    @Test(arguments: [1, 6, 9])
    func fixtureFilesRoundTripThroughSystemGzip(level: Int) throws {
        // long-2h.vtt is big enough for dynamic Huffman blocks; random bytes end up in stored blocks.
        let vtt = try [UInt8](Data(contentsOf: Fixtures.directory.appendingPathComponent("subtitles/long-2h.vtt")))
        var generator = SeededGenerator()
        let noise = (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for original in [vtt, noise, []] {
            guard let compressed = try Self.gzip(original, level: level) else { return }
            #expect(try GzipDecoder.decode(compressed, maxOutputBytes: original.count) == original)
        }
    }

    @Test func concatenatedMembersDecodeToTheirConcatenation() throws {
        let twice = Self.helloGzip + Self.helloGzip
        let expected = Array("WEBVTT\n\nhello hello hello hello\n".utf8)
        #expect(try GzipDecoder.decode(twice, maxOutputBytes: 100) == expected + expected)
    }

    @Test func aGzipBombStopsAtTheCap() throws {
        guard let bomb = try Self.gzip([UInt8](repeating: 0, count: 20_000_000), level: 9) else { return }
        #expect(bomb.count < 100_000)
        #expect(throws: OriginError.tooLarge(limit: 1_000_000)) { try GzipDecoder.decode(bomb, maxOutputBytes: 1_000_000) }
    }

    @Test func corruptOrTruncatedGzipIsABadResponse() {
        var flipped = Self.helloGzip
        flipped[20] ^= 0x55
        #expect(throws: OriginError.self) { try GzipDecoder.decode(flipped, maxOutputBytes: 100) }
        #expect(throws: OriginError.badResponse("gzip body truncated")) {
            try GzipDecoder.decode(Array(Self.helloGzip.prefix(20)), maxOutputBytes: 100)
        }
        var badChecksum = Self.helloGzip
        badChecksum[badChecksum.count - 8] ^= 1
        #expect(throws: OriginError.badResponse("gzip checksum mismatch")) { try GzipDecoder.decode(badChecksum, maxOutputBytes: 100) }
        for cut in 0..<Self.helloGzip.count {
            #expect(throws: OriginError.self) { try GzipDecoder.decode(Array(Self.helloGzip.prefix(cut)), maxOutputBytes: 100) }
        }
    }

    @Test func anOriginGzipBodyIsDecodedAndItsEncodingFieldsDropped() async throws {
        let origin = try TestOrigin(routes: [
            "/en.vtt": .raw(TestOrigin.response(status: 200, headers: [("Content-Encoding", "gzip"), ("Content-Type", "text/vtt")], body: Self.helloGzip)),
            "/br.vtt": .raw(TestOrigin.response(status: 200, headers: [("Content-Encoding", "br")], body: [1, 2, 3])),
        ])
        defer { origin.stop() }
        let client = makeTestClient()
        let response = try await client.fetch(OriginRequest(url: origin.url("/en.vtt"), maxBodyBytes: 1000))
        #expect(response.body == Array("WEBVTT\n\nhello hello hello hello\n".utf8))
        #expect(response.headers["Content-Encoding"] == nil)
        #expect(response.headers["Content-Length"] == nil)
        #expect(response.headers["Content-Type"] == "text/vtt")
        #expect(origin.requests(path: "/en.vtt").first?.headers["Accept-Encoding"] == "gzip")
        await #expect(throws: OriginError.badResponse("unsupported Content-Encoding")) {
            try await client.fetch(OriginRequest(url: origin.url("/br.vtt"), maxBodyBytes: 1000))
        }
        // The cap applies to the decoded size.
        await #expect(throws: OriginError.tooLarge(limit: 10)) {
            try await client.fetch(OriginRequest(url: origin.url("/en.vtt"), maxBodyBytes: 10))
        }
    }
}
