import Glibc
import HTTPWire

extension HTTPClientConnection {
    /// Connects to `request`'s host and port and, for https, completes the TLS handshake before
    /// `deadline`. With `request.addresses` set, only those addresses are tried and the host is not
    /// resolved again: the connect goes where the caller's check looked, whatever DNS answers now.
    static func open(
        for request: HTTPClientRequest,
        connectDeadline: MonotonicTime,
        deadline: MonotonicTime,
        cancellation: HTTPClientCancellation
    ) throws(HTTPClientError) -> HTTPClientConnection {
        let connection: HTTPClientConnection
        if let addresses = request.addresses {
            connection = try open(
                addresses: addresses, port: request.port, connectDeadline: connectDeadline, deadline: deadline, cancellation: cancellation)
        } else {
            connection = try open(
                host: request.host, port: request.port, connectDeadline: connectDeadline, deadline: deadline, cancellation: cancellation)
        }
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
        connectDeadline: MonotonicTime,
        deadline: MonotonicTime,
        cancellation: HTTPClientCancellation
    ) throws(HTTPClientError) -> HTTPClientConnection {
        guard (1...65_535).contains(port) else { throw .invalidRequest("port out of range") }
        if cancellation.isFired { throw .cancelled }
        // getaddrinfo blocks without a deadline of its own; it runs on the exchange's thread, never the async pool.
        let addresses = try HostResolver.system.addresses(of: host)
        return try open(addresses: addresses, port: port, connectDeadline: connectDeadline, deadline: deadline, cancellation: cancellation)
    }

    /// Connects to the first of `addresses` that accepts, in order, all before `connectDeadline`
    /// (and the total `deadline`); no name is resolved.
    static func open(
        addresses: [IPAddress],
        port: Int,
        connectDeadline: MonotonicTime,
        deadline: MonotonicTime,
        cancellation: HTTPClientCancellation
    ) throws(HTTPClientError) -> HTTPClientConnection {
        guard (1...65_535).contains(port) else { throw .invalidRequest("port out of range") }
        if cancellation.isFired { throw .cancelled }
        var lastFailure = "no address"
        for peer in addresses {
            let attempt = try peer.withSocketAddress(port: port) { (address, length, family) throws(HTTPClientError) in
                try connect(
                    to: address, length: length, family: family,
                    connectDeadline: connectDeadline, deadline: deadline, cancellation: cancellation)
            }
            switch attempt {
            case .success(let connection):
                connection.peer = peer
                return connection
            case .failure(let failure):
                lastFailure = failure.description
            }
        }
        throw .connectFailed(lastFailure)
    }

    /// One non-blocking connect to one socket address, waited for until `connectDeadline` (or the
    /// total `deadline`). A refusal or socket failure is returned, for the caller to try the next
    /// address; running out of time or being cancelled is thrown.
    private static func connect(
        to address: UnsafePointer<sockaddr>?,
        length: socklen_t,
        family: Int32,
        connectDeadline: MonotonicTime,
        deadline: MonotonicTime,
        cancellation: HTTPClientCancellation
    ) throws(HTTPClientError) -> Result<HTTPClientConnection, ConnectFailure> {
        let attemptLimit = min(connectDeadline, deadline)
        let limitError: HTTPClientError = connectDeadline <= deadline ? .connectTimeout : .timeout
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(family, type, 0)
        guard fd >= 0 else { return .failure(ConnectFailure(SystemCall.describe(call: "socket", errno: errno))) }
        let connection = HTTPClientConnection(descriptor: fd, deadline: deadline, cancellation: cancellation)
        if Glibc.connect(fd, address, length) != 0 {
            let code = errno
            guard code == EINPROGRESS || code == EINTR else {
                return .failure(ConnectFailure(SystemCall.describe(call: "connect", errno: code)))
            }
            try connection.waitUntilReady(Int16(POLLOUT), until: attemptLimit, timeoutError: limitError)
            var socketError: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &size) != 0 {
                return .failure(ConnectFailure(SystemCall.describe(call: "getsockopt", errno: errno)))
            }
            if socketError != 0 {
                return .failure(ConnectFailure(SystemCall.describe(call: "connect", errno: socketError)))
            }
        }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return .success(connection)
    }

    /// Why one address could not be connected to (`call: message (errno N)`).
    struct ConnectFailure: Error {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
