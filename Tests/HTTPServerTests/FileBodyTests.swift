import Foundation
@testable import HTTPServer
import TestSupport
import Testing

/// Handlers returning `.file` bodies: sent with sendfile from the loop thread, whole or a region.
@Suite(.timeLimit(.minutes(1))) struct FileBodyTests {
    /// A temp file holding `StreamedBodyTests.pattern(count)`; its path.
    static func makeFile(_ count: Int) throws -> String {
        let path = NSTemporaryDirectory() + "file-body-" + UUID().uuidString
        try Data(StreamedBodyTests.pattern(count)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A handler sending `path` whole, or `?offset,length` of it.
    static func fileHandler(_ path: String) -> HTTPImmediateHandler {
        { request in
            let file = try HTTPFile(path: path)
            var (offset, length) = (0, file.size)
            if let query = request.query {
                let numbers = query.split(separator: ",").compactMap { Int($0) }
                if numbers.count == 2 { (offset, length) = (numbers[0], numbers[1]) }
            }
            guard let region = HTTPFileRegion(file: file, offset: offset, length: length) else {
                return HTTPResponse(status: .rangeNotSatisfiable)
            }
            return HTTPResponse(status: .ok, body: .file(region))
        }
    }

    @Test func aFileLargerThanTheSocketBufferIsSentWholeAndTheConnectionIsKept() async throws {
        let path = try Self.makeFile(5_000_123)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withServer(immediateHandler: Self.fileHandler(path)) { server in
            let port = server.port
            let (first, second) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET /a HTTP/1.1\r\nHost: t\r\n\r\n")
                let first = try client.readResponse()
                try client.send("GET /b?10,20 HTTP/1.1\r\nHost: t\r\n\r\n")
                return (first, try client.readResponse())
            }
            #expect(first.header("Content-Length") == "5000123")
            #expect(first.body == StreamedBodyTests.pattern(5_000_123))
            #expect(second.header("Content-Length") == "20")
            #expect(second.body == Array(StreamedBodyTests.pattern(30)[10..<30]))
        }
    }

    @Test func pipelinedFileResponsesComeBackInOrder() async throws {
        let path = try Self.makeFile(300_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withServer(immediateHandler: Self.fileHandler(path)) { server in
            let port = server.port
            let responses = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET /?0,100000 HTTP/1.1\r\nHost: t\r\n\r\nGET /?299990,10 HTTP/1.1\r\nHost: t\r\n\r\nGET / HTTP/1.1\r\nHost: t\r\n\r\n")
                return try (0..<3).map { _ in try client.readResponse() }
            }
            let body = StreamedBodyTests.pattern(300_000)
            #expect(responses.map(\.body) == [Array(body[0..<100_000]), Array(body[299_990...]), body])
        }
    }

    @Test func headAndEmptyRegionsSendNoBodyBytes() async throws {
        let path = try Self.makeFile(1000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withServer(immediateHandler: Self.fileHandler(path)) { server in
            let port = server.port
            let (head, empty, after) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("HEAD / HTTP/1.1\r\nHost: t\r\n\r\n")
                let head = try client.readResponse(isHead: true)
                try client.send("GET /?1000,0 HTTP/1.1\r\nHost: t\r\n\r\n")
                let empty = try client.readResponse()
                try client.send("GET /?0,3 HTTP/1.1\r\nHost: t\r\n\r\n")
                return (head, empty, try client.readResponse())
            }
            #expect(head.header("Content-Length") == "1000")
            #expect(empty.header("Content-Length") == "0")
            #expect(empty.body.isEmpty)
            // Had HEAD or the empty region sent bytes, this response would not parse as [0, 1, 2].
            #expect(after.body == [0, 1, 2])
        }
    }

    @Test func aFileThatShrinksUnderTheSendClosesTheConnectionShort() async throws {
        let path = try Self.makeFile(4_000_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let shrinking: HTTPImmediateHandler = { _ in
            let file = try HTTPFile(path: path)
            // Truncated after open: the promised 4,000,000 bytes cannot all be sent.
            _ = truncate(path, 1000)
            guard let region = HTTPFileRegion(file: file, offset: 0, length: file.size) else { return nil }
            return HTTPResponse(status: .ok, body: .file(region))
        }
        try await withServer(immediateHandler: shrinking) { server in
            let port = server.port
            let outcome = try await onThread { () -> String in
                let client = try RawSocketClient(port: port)
                try client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                return client.responseOutcome()
            }
            #expect(outcome == "connection closed inside the body")
            #expect(try await onThread { try freshRequestStatus(port: port) } == 200)
        }
    }

    @Test func onlyRegularFilesOpenAndRegionsMustLieInside() throws {
        #expect(throws: HTTPServerError.self) { try HTTPFile(path: NSTemporaryDirectory()) }
        #expect(throws: HTTPServerError.self) { try HTTPFile(path: "/nonexistent/\(UUID().uuidString)") }
        let path = try Self.makeFile(100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try HTTPFile(path: path)
        #expect(file.size == 100)
        #expect(HTTPFileRegion(file: file, offset: 0, length: 100) != nil)
        #expect(HTTPFileRegion(file: file, offset: 100, length: 0) != nil)
        #expect(HTTPFileRegion(file: file, offset: 1, length: 100) == nil)
        #expect(HTTPFileRegion(file: file, offset: -1, length: 1) == nil)
        #expect(HTTPFileRegion(file: file, offset: 101, length: 0) == nil)
        #expect(HTTPFileRegion(file: file, offset: 0, length: Int.max) == nil)
    }
}
