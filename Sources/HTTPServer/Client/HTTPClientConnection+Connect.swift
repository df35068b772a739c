import Glibc

extension HTTPClientConnection {
    /// Connects to `request`'s host and port and, for https, completes the TLS handshake before `deadline`.
    static func open(
        for request: HTTPClientRequest,
        connectDeadline: ContinuousClock.Instant,
        deadline: ContinuousClock.Instant,
        cancellation: HTTPClientCancellation
    ) throws(HTTPClientError) -> HTTPClientConnection {
        let connection = try open(
            host: request.host, port: request.port, connectDeadline: connectDeadline, deadline: deadline, cancellation: cancellation)
        if let tls = request.tls {
            do throws(HTTPClientError) {
                try connection.startTLS(tls, serverName: request.serverName ?? request.host)
            } catch {
                connection.close()
                throw error
            }
        }
        return connection
    }

    /// Resolves `host` (IPv4 and IPv6) and connects to the first address that accepts, all before
    /// `connectDeadline` (and the total `deadline`).
    static func open(
        host: String,
        port: Int,
        connectDeadline: ContinuousClock.Instant,
        deadline: ContinuousClock.Instant,
        cancellation: HTTPClientCancellation
    ) throws(HTTPClientError) -> HTTPClientConnection {
        guard (1...65_535).contains(port) else { throw .invalidRequest("port out of range") }
        guard !host.isEmpty, host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) else {
            throw .invalidRequest("bad host")
        }
        if cancellation.isFired { throw .cancelled }

        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        // getaddrinfo blocks without a deadline of its own; it runs on the exchange's thread, never the async pool.
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            if status == EAI_SYSTEM { throw .dnsFailure(describe(call: "getaddrinfo", errno: errno)) }
            throw .dnsFailure(gai_strerror(status).map { String(cString: $0) } ?? "getaddrinfo failed")
        }
        defer { freeaddrinfo(first) }

        let attemptLimit = min(connectDeadline, deadline)
        let limitError: HTTPClientError = connectDeadline <= deadline ? .connectTimeout : .timeout
        var lastFailure = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let fd = socket(address.pointee.ai_family, type, address.pointee.ai_protocol)
            guard fd >= 0 else {
                lastFailure = describe(call: "socket", errno: errno)
                continue
            }
            let connection = HTTPClientConnection(descriptor: fd, deadline: deadline, cancellation: cancellation)
            if Glibc.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 {
                let code = errno
                guard code == EINPROGRESS || code == EINTR else {
                    lastFailure = describe(call: "connect", errno: code)
                    continue
                }
                try connection.waitUntilReady(Int16(POLLOUT), until: attemptLimit, timeoutError: limitError)
                var socketError: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length) != 0 {
                    lastFailure = describe(call: "getsockopt", errno: errno)
                    continue
                }
                if socketError != 0 {
                    lastFailure = describe(call: "connect", errno: socketError)
                    continue
                }
            }
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            return connection
        }
        throw .connectFailed(lastFailure)
    }
}
