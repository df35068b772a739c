import HTTPServer
import TestSupport
import Testing

@Suite struct HandlerResultTests {
    @Test func aThrownStatusErrorBecomesItsStatusWithTheReason() async throws {
        try await withServer { server in
            let port = server.port
            let (error, next) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET /status-error HTTP/1.1\r\nHost: t\r\n\r\n")
                let error = try client.readResponse()
                try client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                return (error, try client.readResponse())
            }
            #expect(error.status == 403)
            #expect(error.text == "not for you\n")
            #expect(error.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(next.status == 200, "a handler error keeps the connection")
        }
    }

    @Test func anyOtherThrownErrorBecomes500() async throws {
        try await withServer { server in
            let port = server.port
            let response = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET /plain-error HTTP/1.1\r\nHost: t\r\n\r\n")
                return try client.readResponse()
            }
            #expect(response.status == 500)
            #expect(response.text == "Internal Server Error\n")
        }
    }

    @Test func theServersFramingHeadersWinOverTheHandlers() async throws {
        try await withServer { server in
            let port = server.port
            let (response, closed) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET /own-framing HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
                return (try client.readResponse(), try client.readsEndOfStream())
            }
            #expect(response.text == "framed\n")
            #expect(response.headerCount("Content-Length") == 1 && response.header("Content-Length") == "7")
            #expect(response.headerCount("Date") == 1 && response.header("Date") != "yesterday")
            #expect(response.headerCount("Connection") == 1 && response.header("Connection") == "close")
            #expect(closed)
        }
    }
}
