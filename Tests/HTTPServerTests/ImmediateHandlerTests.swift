import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// Answers `/now/...` on the loop thread, throws for `/now-error`, and leaves everything else to the
/// async `echoHandler`.
let immediateEcho: HTTPImmediateHandler = { request in
    if request.path == "/now-error" { throw TeapotError() }
    guard request.path.hasPrefix("/now/") else { return nil }
    return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], bytes: Array("now \(request.path)".utf8))
}

@Suite struct ImmediateHandlerTests {
    @Test func anImmediateResponseNeverReachesTheAsyncHandler() async throws {
        let asyncCalls = Atomic<Int>(0)
        let counting: HTTPHandler = { request in
            asyncCalls.add(1, ordering: .relaxed)
            return try await echoHandler(request)
        }
        try await withServer(handler: counting, immediateHandler: immediateEcho) { server in
            let port = server.port
            let response = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET /now/a HTTP/1.1\r\nHost: t\r\n\r\n")
                return try client.readResponse()
            }
            #expect(response.status == 200)
            #expect(response.text == "now /now/a")
            #expect(response.header("Content-Length") == "10")
            #expect(asyncCalls.load(ordering: .relaxed) == 0)
        }
    }

    @Test func nilFromTheImmediateHandlerPassesTheRequestToTheAsyncHandler() async throws {
        try await withServer(immediateHandler: immediateEcho) { server in
            let port = server.port
            let response = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET /later?x=1 HTTP/1.1\r\nHost: t\r\n\r\n")
                return try client.readResponse()
            }
            #expect(response.status == 200)
            #expect(response.text.hasPrefix("GET path=/later raw=/later query=x=1"))
        }
    }

    @Test func anErrorThrownByTheImmediateHandlerBecomesItsStatus() async throws {
        try await withServer(immediateHandler: immediateEcho) { server in
            let port = server.port
            let (error, next) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET /now-error HTTP/1.1\r\nHost: t\r\n\r\nGET /now/b HTTP/1.1\r\nHost: t\r\n\r\n")
                return (try client.readResponse(), try client.readResponse())
            }
            #expect(error.status == 403)
            #expect(error.text == "not for you\n")
            #expect(next.text == "now /now/b", "a handler error keeps the connection")
        }
    }

    @Test func pipelinedImmediateAndAsyncResponsesKeepRequestOrder() async throws {
        try await withServer(immediateHandler: immediateEcho) { server in
            let port = server.port
            let texts = try await onThread {
                let client = try RawSocketClient(port: port)
                // The slow async answers come first: answering in completion order would put the immediate
                // ones ahead of them.
                try client.send("GET /slow?200 HTTP/1.1\r\nHost: t\r\n\r\nGET /now/1 HTTP/1.1\r\nHost: t\r\n\r\n"
                    + "GET /now/2 HTTP/1.1\r\nHost: t\r\n\r\nGET /slow?50 HTTP/1.1\r\nHost: t\r\n\r\n"
                    + "GET /now/3 HTTP/1.1\r\nHost: t\r\n\r\n")
                return try (0..<5).map { _ in try client.readResponse().text }
            }
            #expect(texts.count == 5)
            #expect(texts[0].contains("query=200"))
            #expect(texts[1] == "now /now/1")
            #expect(texts[2] == "now /now/2")
            #expect(texts[3].contains("query=50"))
            #expect(texts[4] == "now /now/3")
        }
    }

    @Test func aLongPipelinedRunOfImmediateRequestsIsAnsweredInFull() async throws {
        // Far more requests than one connection may serve in a turn, so the connection must be resumed.
        let count = 1500
        try await withServer(immediateHandler: immediateEcho) { server in
            let port = server.port
            let texts = try await onThread {
                let client = try RawSocketClient(port: port)
                let requests = (0..<count).map { "GET /now/\($0) HTTP/1.1\r\nHost: t\r\n\r\n" }.joined()
                let sender = Thread { try? client.send(requests) }
                sender.start()
                return try (0..<count).map { _ in try client.readResponse().text }
            }
            #expect(texts == (0..<count).map { "now /now/\($0)" })
        }
    }

    @Test func pipelinedRequestsWithContentLengthAndChunkedBodiesSentInRandomPiecesAreAnsweredInOrder() async throws {
        // Kept input is consumed from an offset: pieces that end mid-head or mid-body, immediate and
        // async answers, and bodies between heads must all line up with what was sent.
        var generator = SeededGenerator()
        var requests: [(text: String, expected: String)] = []
        for index in 0..<300 {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                requests.append(("GET /now/\(index) HTTP/1.1\r\nHost: t\r\n\r\n", "now /now/\(index)"))
            case 1:
                let body = String(repeating: "b", count: Int.random(in: 1...40, using: &generator))
                requests.append(("GET /a/\(index) HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)",
                                 "GET path=/a/\(index) raw=/a/\(index) query=nil target=/a/\(index) body=0"))
            case 2:
                // A chunked body, with an extension and a trailer: discarded, the framing kept.
                let body = String(repeating: "c", count: Int.random(in: 1...40, using: &generator))
                let chunks = "\(String(body.utf8.count, radix: 16));x=y\r\n\(body)\r\n2\r\nzz\r\n0\r\nX-T: t\r\n\r\n"
                requests.append(("GET /a/\(index) HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n\(chunks)",
                                 "GET path=/a/\(index) raw=/a/\(index) query=nil target=/a/\(index) body=0"))
            default:
                requests.append(("GET /a/\(index)?q HTTP/1.1\r\nHost: t\r\n\r\n",
                                 "GET path=/a/\(index) raw=/a/\(index) query=q target=/a/\(index)?q body=0"))
            }
        }
        let bytes = Array(requests.map(\.text).joined().utf8)
        // Each piece with the pause after it, so the whole run follows the seed.
        var pieces: [(bytes: [UInt8], pause: UInt32)] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + Int.random(in: 1...700, using: &generator))
            pieces.append((Array(bytes[offset..<end]), UInt32.random(in: 0...300, using: &generator)))
            offset = end
        }
        let sentPieces = pieces
        let count = requests.count
        try await withServer(immediateHandler: immediateEcho) { server in
            let port = server.port
            let texts = try await onThread {
                let client = try RawSocketClient(port: port)
                let sender = Thread {
                    for piece in sentPieces {
                        try? client.send(piece.bytes)
                        usleep(piece.pause)  // the pauses spread the pieces over separate reads: the point
                    }
                }
                sender.start()
                return try (0..<count).map { _ in try client.readResponse().text }
            }
            let expected = requests.map(\.expected)
            #expect(texts.count == expected.count)
            // The first answer out of line says what went wrong; the whole lists would bury it.
            if let first = texts.indices.first(where: { $0 < expected.count && texts[$0] != expected[$0] }) {
                Issue.record("answer \(first) is \"\(texts[first])\", expected \"\(expected[first])\"")
            }
        }
    }

    @Test func aHeadRequestAnsweredAtOnceGetsTheLengthButNoBody() async throws {
        try await withServer(immediateHandler: immediateEcho) { server in
            let port = server.port
            let (head, next) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("HEAD /now/c HTTP/1.1\r\nHost: t\r\n\r\nGET /now/d HTTP/1.1\r\nHost: t\r\n\r\n")
                return (try client.readResponse(isHead: true), try client.readResponse())
            }
            #expect(head.status == 200 && head.header("Content-Length") == "10" && head.body.isEmpty)
            #expect(next.text == "now /now/d", "the next response starts right after the HEAD response's head")
        }
    }

    @Test func aClosingRequestAnsweredAtOnceClosesTheConnection() async throws {
        try await withServer(immediateHandler: immediateEcho) { server in
            let port = server.port
            let (response, closed) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET /now/e HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\nGET /now/f HTTP/1.1\r\nHost: t\r\n\r\n")
                return (try client.readResponse(), try client.readsEndOfStream())
            }
            #expect(response.text == "now /now/e" && response.header("Connection") == "close")
            #expect(closed, "nothing is answered after a Connection: close request")
        }
    }
}
