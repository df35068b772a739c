@testable import HTTPServer
@testable import HTTPWire
import TestSupport
import Testing

/// How response heads are written: the fields the server owns, and heads larger than the loop's buffer.
@Suite(.timeLimit(.minutes(1))) struct ResponseHeadTests {
    static let framing = ResponseWriter.Framing(isHeadRequest: false, keepAlive: true, requestVersion: .http1_1,
                                                date: Array("D".utf8), serverField: ResponseWriter.serverField("s"))

    @Test func fieldsTheServerOwnsAreDroppedInAnySpellingAndBadNamesAreSkipped() {
        let response = HTTPResponse(status: .ok, headers: [
            "content-LENGTH": "9", "DATE": "x", "connection": "close", "Transfer-encoding": "chunked",
            "Bad Name": "v", "": "v", "X-Datum": "kept", "Connectionz": "kept", "SERVER": "mine",
        ], bytes: [0x41])
        let head = String(decoding: ResponseWriter.serialize(response, framing: Self.framing).head, as: UTF8.self)
        #expect(head == "HTTP/1.1 200 OK\r\nX-Datum: kept\r\nConnectionz: kept\r\nSERVER: mine\r\nDate: D\r\nContent-Length: 1\r\n\r\n")
    }

    @Test func statusLinesUseTheStandardReasonOrTheOneGivenSanitized() {
        func statusLine(_ status: HTTPStatus) -> String {
            let head = String(decoding: ResponseWriter.serialize(HTTPResponse(status: status), framing: Self.framing).head, as: UTF8.self)
            // "\r\n" is one Character: the first line is everything before the first one.
            return String(head.prefix { $0 != "\r\n" })
        }
        #expect(statusLine(.ok) == "HTTP/1.1 200 OK")
        #expect(statusLine(.found) == "HTTP/1.1 302 Found")
        #expect(statusLine(.gatewayTimeout) == "HTTP/1.1 504 Gateway Timeout")
        #expect(statusLine(HTTPStatus(code: 200, reasonPhrase: "Fine")) == "HTTP/1.1 200 Fine")
        #expect(statusLine(HTTPStatus(code: 404, reasonPhrase: "Gone\r\nX: y")) == "HTTP/1.1 404 Gone  X: y")
        #expect(statusLine(HTTPStatus(code: 299)) == "HTTP/1.1 299 \(HTTPStatus.standardReason(for: 299))")
        #expect(statusLine(HTTPStatus(code: 799, reasonPhrase: "Odd")) == "HTTP/1.1 799 Odd")
        // Interim and malformed codes are never a final status line.
        #expect(statusLine(HTTPStatus(code: 101)) == "HTTP/1.1 500 Internal Server Error")
    }

    @Test func theServerNameIsSanitizedOnce() {
        #expect(ResponseWriter.serverField("a\r\nb") == Array("Server: a  b\r\n".utf8))
    }

    @Test func aHeadLargerThanTheFirstBufferIsWrittenWhole() {
        let value = String(repeating: "v", count: 9000)
        let response = HTTPResponse(status: .ok, headers: ["X-Big": value], bytes: [])
        let head = String(decoding: ResponseWriter.serialize(response, framing: Self.framing).head, as: UTF8.self)
        #expect(head == "HTTP/1.1 200 OK\r\nX-Big: \(value)\r\nServer: s\r\nDate: D\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func aHeadFillingTheBufferToItsLastByteFitsAndOneByteMoreIsMeasured() {
        let response = HTTPResponse(status: .ok, bytes: [])
        let length = ResponseWriter.serialize(response, framing: Self.framing).head.count
        var exact = [UInt8](repeating: 0, count: length)
        #expect(ResponseWriter.writeHead(response, framing: Self.framing, into: &exact) == length)
        #expect(exact == ResponseWriter.serialize(response, framing: Self.framing).head)
        var short = [UInt8](repeating: 0, count: length - 1)
        #expect(ResponseWriter.writeHead(response, framing: Self.framing, into: &short) == length)
        #expect(short.count == length - 1)
    }

    /// Heads of 4,095, 4,096 and 4,097 bytes: the last byte of the loop's 4 KiB head buffer, and one past it.
    @Test func headsAroundTheLoopsBufferSizeAreWrittenWhole() async throws {
        // The loop's framing: a 29-byte IMF-fixdate and the configured server name.
        let framing = ResponseWriter.Framing(
            isHeadRequest: false, keepAlive: true, requestVersion: .http1_1, date: Array(repeating: 0x44, count: 29),
            serverField: ResponseWriter.serverField(HTTPServerConfiguration().serverName))
        func headLength(_ pad: Int) -> Int {
            let response = HTTPResponse(status: .ok, headers: ["X-Pad": String(repeating: "p", count: pad)], bytes: Array("body".utf8))
            return ResponseWriter.serialize(response, framing: framing).head.count
        }
        let pad = 4096 - headLength(0)
        let handler: HTTPImmediateHandler = { request in
            HTTPResponse(status: .ok, headers: ["X-Pad": String(repeating: "p", count: Int(request.query ?? "") ?? 0)], bytes: Array("body".utf8))
        }
        try await withServer(immediateHandler: handler) { server in
            let port = server.port
            let responses = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send([pad - 1, pad, pad + 1, 0].map { "GET /?\($0) HTTP/1.1\r\nHost: t\r\n\r\n" }.joined())
                return try (0..<4).map { _ in try client.readResponse() }
            }
            #expect([pad - 1, pad, pad + 1].map(headLength) == [4095, 4096, 4097])
            #expect(responses.map { $0.header("X-Pad")?.count ?? -1 } == [pad - 1, pad, pad + 1, 0])
            #expect(responses.allSatisfy { $0.body == Array("body".utf8) })
        }
    }

    @Test func theServerGrowsItsHeadBufferForALargeHeadAndKeepsServing() async throws {
        let value = String(repeating: "w", count: 20_000)
        let handler: HTTPImmediateHandler = { request in
            HTTPResponse(status: .ok, headers: request.path == "/big" ? ["X-Big": value] : [:], bytes: Array("body".utf8))
        }
        try await withServer(immediateHandler: handler) { server in
            let port = server.port
            let (big, small) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET /big HTTP/1.1\r\nHost: t\r\n\r\nGET /small HTTP/1.1\r\nHost: t\r\n\r\n")
                return (try client.readResponse(), try client.readResponse())
            }
            #expect(big.header("X-Big") == value)
            #expect(big.body == Array("body".utf8))
            #expect(small.header("X-Big") == nil)
            #expect(small.body == Array("body".utf8))
        }
    }
}

/// Header names compare ASCII case-insensitively and nothing else (RFC 9110 §5.1).
@Suite struct HeaderNameComparisonTests {
    @Test(arguments: [
        ("Content-Length", "content-length", true), ("HOST", "host", true), ("Host", "Hosts", false),
        ("X-A", "X-B", false), ("a-b", "A\rB", false), ("[", "{", false), ("@", "`", false), ("", "", true),
        ("Ünicode", "ünicode", false), ("ünicode", "ünicode", true),
    ])
    func namesCompareByASCIICaseOnly(a: String, b: String, equal: Bool) {
        #expect(HTTPHeaders.equalNames(a, b) == equal)
        var headers = HTTPHeaders()
        headers.add(name: a, value: "v")
        #expect((headers[b] != nil) == equal)
    }
}
