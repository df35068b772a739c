@testable import HTTPClient
@testable import HTTPWire
import Testing

/// Feeds canned bytes to the reader in fixed-size pieces, so every split point is exercised.
final class CannedByteSource: HTTPByteSource {
    private var remaining: ArraySlice<UInt8>
    private let pieceSize: Int

    init(_ text: String, pieceSize: Int) {
        remaining = Array(text.utf8)[...]
        self.pieceSize = pieceSize
    }

    func receive(into buffer: inout [UInt8], limit: Int) throws(HTTPClientError) -> Int {
        let count = min(pieceSize, limit, remaining.count)
        buffer.append(contentsOf: remaining.prefix(count))
        remaining = remaining.dropFirst(count)
        return count
    }
}

/// Reads one response from `wire`, delivered `pieceSize` bytes at a time.
func readResponse(_ wire: String, method: HTTPMethod = .get, limit: Int = 1000, pieceSize: Int = 1) throws(HTTPClientError) -> (HTTPResponseHead, [UInt8]) {
    var reader = HTTPResponseReader(source: CannedByteSource(wire, pieceSize: pieceSize))
    let head = try reader.readHead()
    let framing = try HTTPBodyFraming.of(method: method, status: head.status, headers: head.headers)
    return (head, try reader.readBody(framing, limit: limit))
}

@Suite struct HTTPClientTests {
    @Test(arguments: [1, 3, 7, 4096])
    func chunkedBodiesSurviveAnySplit(pieceSize: Int) throws {
        let wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n4\r\nWiki\r\n6 ; name=\"v\"\r\npedia \r\nE\r\nin \r\n\r\nchunks.\r\n0\r\nExpires: never\r\n\r\n"
        // RFC 9112 §7.1 style example; the chunk text is the well-known "Wikipedia in \r\n\r\nchunks." one.
        let (head, body) = try readResponse(wire, pieceSize: pieceSize)
        #expect(head.status == 200)
        #expect(String(decoding: body, as: UTF8.self) == "Wikipedia in \r\n\r\nchunks.")
    }

    @Test func interimResponsesAreSkipped() throws {
        let (head, body) = try readResponse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        #expect(head.status == 200)
        #expect(head.headers["Link"] == nil)
        #expect(body == Array("ok".utf8))
    }

    @Test func toleratedHeadQuirksParse() throws {
        let wire = "HTTP/1.0 200\nX-A:b\nX-Folded: one\r\n  two\r\nX-Empty:\r\nContent-Length: 3, 3\r\n\r\nabc"
        let (head, body) = try readResponse(wire)
        #expect(head.version == .http1_0)
        #expect(head.reasonPhrase == "")
        #expect(head.headers["X-A"] == "b")
        #expect(head.headers["X-Folded"] == "one two")
        #expect(head.headers["X-Empty"] == "")
        #expect(body == Array("abc".utf8))
    }

    @Test func bodylessResponsesIgnoreTheirLength() throws {
        #expect(try readResponse("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n", method: .head).1.isEmpty)
        #expect(try readResponse("HTTP/1.1 304 Not Modified\r\nContent-Length: 50\r\n\r\n").1.isEmpty)
        #expect(try readResponse("HTTP/1.1 204 No Content\r\n\r\n").1.isEmpty)
    }

    @Test(arguments: [("1", 1), ("a", 10), ("A", 10), ("7fffffff", 0x7fff_ffff), ("0000000000000000000001", 1)])
    func strictChunkSizesParse(text: String, size: Int) throws {
        #expect(try HTTPResponseSyntax.parseChunkSize(Array(text.utf8)) == size)
    }

    @Test(arguments: ["", "0x1", "-1", "+1", " 1", "1 x", "g", "8000000000000000", "ffffffffffffffffffff"])
    func badChunkSizesAreMalformed(text: String) {
        #expect(throws: HTTPClientError.self) { try HTTPResponseSyntax.parseChunkSize(Array(text.utf8)) }
    }

    @Test func aHugeChunkIsRefusedBeforeReadingIt() {
        #expect(throws: HTTPClientError.bodyTooLarge(limit: 1000)) {
            try readResponse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nabc")
        }
    }

    @Test func anOversizedHeadIsMalformed() {
        let wire = "HTTP/1.1 200 OK\r\nX-Big: " + String(repeating: "a", count: 70_000) + "\r\n\r\n"
        #expect(throws: HTTPClientError.malformedResponse("line too long")) { try readResponse(wire, pieceSize: 4096) }
    }

    @Test func aCloseMidHeadIsMalformedAndBeforeAnyByteIsConnectionLost() {
        #expect(throws: HTTPClientError.malformedResponse("closed inside the head")) { try readResponse("HTTP/1.1 200 OK\r\nX-A: b") }
        #expect(throws: HTTPClientError.connectionLost("closed before a response")) { try readResponse("") }
    }

    @Test func requestHeadsCarryHostAndRefuseInjectedLines() throws {
        let request = HTTPClientRequest(host: "::1", port: 8080, target: "/a?b=c", headers: ["X-A": "1"])
        let head = String(decoding: try HTTPClient.makeRequestHead(request), as: UTF8.self)
        #expect(head == "GET /a?b=c HTTP/1.1\r\nHost: [::1]:8080\r\nX-A: 1\r\nConnection: close\r\n\r\n")
        let injected = HTTPClientRequest(host: "h", target: "/", headers: ["X-A": "1\r\nX-Evil: 2"])
        #expect(throws: HTTPClientError.invalidRequest("control character in a header value")) { try HTTPClient.makeRequestHead(injected) }
        let spaced = HTTPClientRequest(host: "h", target: "/a b")
        #expect(throws: HTTPClientError.invalidRequest("bad request target")) { try HTTPClient.makeRequestHead(spaced) }
    }

    @Test func aRefusedConnectionIsReportedAsSuch() async {
        // Port 1 on loopback: nothing listens there on a test machine.
        let error = await #expect(throws: HTTPClientError.self) {
            try await HTTPClient.send(HTTPClientRequest(host: "127.0.0.1", port: 1, target: "/"),
                                      connectTimeout: .seconds(2), deadline: .seconds(2), maxBodyBytes: 10)
        }
        guard case .connectFailed(let why) = error else {
            Issue.record("expected connectFailed, got \(String(describing: error))")
            return
        }
        #expect(why.contains("errno 111"))
    }
}
