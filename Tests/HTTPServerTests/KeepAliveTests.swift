import HTTPServer
import TestSupport
import Testing

@Suite struct KeepAliveTests {
    @Test func twoRequestsAreServedOnOneConnection() async throws {
        try await withServer { server in
            let port = server.port
            let (first, second) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET /one HTTP/1.1\r\nHost: test\r\n\r\n")
                let first = try client.readResponse()
                try client.send("GET /two HTTP/1.1\r\nHost: test\r\n\r\n")
                return (first, try client.readResponse())
            }
            #expect(first.status == 200 && first.text.contains("path=/one"))
            #expect(second.status == 200 && second.text.contains("path=/two"))
            #expect(first.header("Connection") == nil)
            #expect(first.header("Server") == "hls-subtitle-proxy")
            #expect(first.header("Content-Length") == String(first.body.count))
            #expect(first.header("Date")?.hasSuffix(" GMT") == true)
        }
    }

    @Test func http10ClosesByDefault() async throws {
        try await withServer { server in
            let port = server.port
            let (response, closed) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET / HTTP/1.0\r\n\r\n")
                return (try client.readResponse(), try client.readsEndOfStream())
            }
            #expect(response.status == 200)
            #expect(response.header("Connection") == "close")
            #expect(closed)
        }
    }

    @Test func http10KeepsTheConnectionWhenAsked() async throws {
        try await withServer { server in
            let port = server.port
            let (first, second) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                let first = try client.readResponse()
                try client.send("GET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                return (first, try client.readResponse())
            }
            #expect(first.header("Connection") == "keep-alive")
            #expect(second.status == 200 && second.text.contains("path=/b"))
        }
    }

    @Test func connectionCloseIsHonoured() async throws {
        try await withServer { server in
            let port = server.port
            let (response, closed) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
                return (try client.readResponse(), try client.readsEndOfStream())
            }
            #expect(response.status == 200 && response.header("Connection") == "close")
            #expect(closed)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withServer { server in
            let port = server.port
            let responses = try await onThread {
                let client = try RawSocketClient(port: port)
                // The first is slowest, so answering in completion order would reverse them.
                try client.send("GET /slow?300 HTTP/1.1\r\nHost: t\r\n\r\nGET /slow?10 HTTP/1.1\r\nHost: t\r\n\r\n"
                    + "GET /slow?100 HTTP/1.1\r\nHost: t\r\n\r\n")
                return try (0..<3).map { _ in try client.readResponse().text }
            }
            #expect(responses.map { $0.contains("query=300") } == [true, false, false])
            #expect(responses.map { $0.contains("query=10 ") } == [false, true, false])
            #expect(responses.map { $0.contains("query=100") } == [false, false, true])
        }
    }

    @Test func headGetsTheContentLengthOfGetButNoBody() async throws {
        try await withServer { server in
            let port = server.port
            let (head, get, leftover) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("HEAD /x HTTP/1.1\r\nHost: t\r\n\r\n")
                let head = try client.readResponse(isHead: true)
                // If the HEAD response had carried a body, it would show up as the start of this read.
                try client.send("GET /x HTTP/1.1\r\nHost: t\r\n\r\n")
                let get = try client.readResponse()
                return (head, get, client.unreadBytes)
            }
            #expect(head.status == 200)
            #expect(get.statusLine == "HTTP/1.1 200 OK")
            // The echo body names the method, so HEAD's length is GET's plus one ("HEAD" vs "GET").
            #expect(Int(head.header("Content-Length") ?? "") == get.body.count + 1)
            #expect(leftover.isEmpty)
        }
    }

    @Test func optionsReachesTheHandler() async throws {
        try await withServer { server in
            let port = server.port
            let (path, star) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("OPTIONS /p HTTP/1.1\r\nHost: t\r\nOrigin: http://a\r\n\r\n")
                let path = try client.readResponse()
                try client.send("OPTIONS * HTTP/1.1\r\nHost: t\r\n\r\n")
                return (path, try client.readResponse())
            }
            #expect(path.status == 200 && path.text.hasPrefix("OPTIONS path=/p "))
            #expect(star.status == 200 && star.text.contains("target=*"))
        }
    }

    @Test func bareLineFeedLineEndingsAreAccepted() async throws {
        try await withServer { server in
            let port = server.port
            let response = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("\r\nGET /lf HTTP/1.1\nHost: t\n\n")
                return try client.readResponse()
            }
            #expect(response.status == 200 && response.text.contains("path=/lf"))
        }
    }

    @Test func absoluteFormAndPercentEncodedPathsReachTheHandlerDecoded() async throws {
        try await withServer { server in
            let port = server.port
            let response = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET http://origin.example/a%20b/%C3%A9?x=%41 HTTP/1.1\r\nHost: origin.example\r\n\r\n")
                return try client.readResponse()
            }
            #expect(response.text == "GET path=/a b/é raw=/a%20b/%C3%A9 query=x=%41 target=http://origin.example/a%20b/%C3%A9?x=%41 body=0")
        }
    }

    @Test func aDeclaredBodyIsReadPastAndDiscardedAndTheNextRequestFollowsIt() async throws {
        try await withServer { server in
            let port = server.port
            let (first, second) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET /b HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhel")
                try client.send("loGET /after HTTP/1.1\r\nHost: t\r\n\r\n")
                return (try client.readResponse(), try client.readResponse())
            }
            #expect(first.text.hasSuffix("body=0"))
            #expect(second.text.contains("path=/after"))
        }
    }
}
