import Glibc
import HTTPServer
import Synchronization
import TestSupport
import Testing

@Suite struct LifecycleTests {
    @Test func aSlowRequestHeadGets408AndClose() async throws {
        try await withServer({ $0.headerTimeout = .milliseconds(300) }) { server in
            let port = server.port
            let (response, closed) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET / HTTP/1.1\r\nHost: t\r\n")
                return (try client.readResponse(), try client.readsEndOfStream())
            }
            #expect(response.status == 408)
            #expect(response.header("Connection") == "close")
            #expect(closed)
        }
    }

    @Test func anIdleKeepAliveConnectionIsClosedSilently() async throws {
        try await withServer({ $0.idleTimeout = .milliseconds(300) }) { server in
            let port = server.port
            let (response, closed) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                return (try client.readResponse(), try client.readsEndOfStream())
            }
            #expect(response.status == 200)
            #expect(closed, "closed with no bytes after the response")
            try await eventually { server.openConnections == 0 }
        }
    }

    @Test func connectionsOverTheCapGet503() async throws {
        try await withServer({ $0.maxConnections = 2 }) { server in
            let port = server.port
            let (statuses, open) = try await onThread {
                let first = try RawSocketClient(port: port)
                let second = try RawSocketClient(port: port)
                try first.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                try second.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                let statuses = [try first.readResponse().status, try second.readResponse().status]
                let open = server.openConnections
                let third = try RawSocketClient(port: port)
                try third.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                let refused = try third.readResponse()
                return (statuses + [refused.status], open)
            }
            #expect(statuses == [200, 200, 503])
            #expect(open == 2)
        }
    }

    @Test func gracefulStopFinishesTheRequestInFlightThenRefusesConnections() async throws {
        let started = Atomic<Bool>(false)
        let release = Gate()
        // Opened on every way out too, so a failed wait never leaves the handler suspended.
        defer { release.open() }
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0)) { request in
            started.store(true, ordering: .relaxed)
            // Held until the stop is under way, so the request is in flight when it begins.
            await release.wait()
            return HTTPResponse(status: .ok, bytes: Array("slow done".utf8))
        }
        try server.start()
        let port = server.port
        async let inFlight = onThread {
            let client = try RawSocketClient(port: port)
            try client.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
            return try client.readResponse()
        }
        try await eventually { started.load(ordering: .relaxed) }
        #expect(server.isAcceptingConnections)
        async let stopped: Void = server.stop(gracePeriod: .seconds(5))
        // The loop closes its listener when it takes the stop request, before any response posted
        // after it: a refused connection says the stop has reached the loop, so the gate opens then.
        try await eventually("the listener stayed open after stop began") {
            try await onThread { (try? RawSocketClient(port: port)) == nil }
        }
        release.open()
        await stopped
        let response = try await inFlight
        #expect(response.status == 200 && response.text == "slow done")
        #expect(response.header("Connection") == "close")
        #expect(!server.isAcceptingConnections)
        let refused = try await onThread { () -> Bool in
            do {
                _ = try RawSocketClient(port: port)
                return false
            } catch {
                return true
            }
        }
        #expect(refused)
    }

    @Test func stopClosesIdleKeepAliveConnections() async throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0), handler: echoHandler)
        try server.start()
        let port = server.port
        let client = try await onThread { () -> RawSocketClient in
            let client = try RawSocketClient(port: port)
            try client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = try client.readResponse()
            return client
        }
        await server.stop(gracePeriod: .seconds(5))
        let closed = try await onThread { try client.readsEndOfStream() }
        #expect(closed)
        await server.waitUntilStopped()
    }

    @Test func portZeroReportsTheBoundPort() async throws {
        try await withServer { server in
            #expect(server.port > 0)
            #expect(server.address == "127.0.0.1:\(server.port)")
            let port = server.port
            let next = try await onThread { try freshRequestStatus(port: port) }
            #expect(next == 200)
        }
    }

    @Test func addressInUseIsDescriptive() async throws {
        try await withServer { server in
            let second = HTTPServer(configuration: HTTPServerConfiguration(port: server.port), handler: echoHandler)
            let error = #expect(throws: HTTPServerError.self) { try second.start() }
            #expect(error?.description == "bind(127.0.0.1:\(server.port)): Address already in use")
            #expect(error?.errorNumber == EADDRINUSE)
        }
    }

    @Test func ipv6LoopbackIsServed() async throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "::1", port: 0), handler: echoHandler)
        do {
            try server.start()
        } catch let error as HTTPServerError where error.errorNumber == EADDRNOTAVAIL || error.errorNumber == EAFNOSUPPORT {
            print("⚠️⚠️⚠️ SKIPPED ipv6LoopbackIsServed: this machine has no IPv6 loopback (\(error)) ⚠️⚠️⚠️")
            return
        }
        let port = server.port
        #expect(server.address == "[::1]:\(port)")
        let response = try await onThread {
            let client = try RawSocketClient(host: "::1", port: port)
            try client.send("GET /six HTTP/1.1\r\nHost: [::1]\r\n\r\n")
            return try client.readResponse()
        }
        #expect(response.status == 200 && response.text.contains("path=/six"))
        await server.stop(gracePeriod: .seconds(1))
    }

    @Test func aPeerClosingMidRequestLeavesNoConnectionBehind() async throws {
        try await withServer { server in
            let port = server.port
            try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET /partial HTTP/1.1\r\nHost: t\r\nX-Half: ")
            }
            try await eventually { server.openConnections == 0 }
            let next = try await onThread { try freshRequestStatus(port: port) }
            #expect(next == 200)
        }
    }

    @Test func aStalledWriteIsDropped() async throws {
        // Long enough that a loaded machine still sees the connection open before it is dropped.
        try await withServer({ $0.writeTimeout = .seconds(2) }) { server in
            let port = server.port
            let client = try await onThread { () -> RawSocketClient in
                let client = try RawSocketClient(port: port)
                // 16 MiB will not fit in the socket buffers of a client that never reads.
                try client.send("GET /big HTTP/1.1\r\nHost: t\r\n\r\n")
                return client
            }
            try await eventually { server.openConnections == 1 }
            try await eventually { server.openConnections == 0 }
            withExtendedLifetime(client) {}
        }
    }
}
