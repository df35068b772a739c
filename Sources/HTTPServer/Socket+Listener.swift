import Glibc

extension Socket {
    /// Opens a non-blocking listening socket on `host:port` and returns it with the address actually bound.
    /// With `reusePort`, several sockets may listen on the same address (SO_REUSEPORT), one per loop.
    static func makeListener(host: String, port: Int, backlog: Int32 = 1024, reusePort: Bool = false) throws -> (Socket, SocketAddress) {
        guard let address = SocketAddress(host: host, port: port) else {
            throw HTTPServerError(operation: "listen(\(host):\(port))", errorNumber: EINVAL,
                                  message: "host must be an IPv4 or IPv6 literal or localhost, port 0...65535")
        }
        let fd = Glibc.socket(address.family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HTTPServerError.system("socket(\(address))", errno: errno) }
        let socket = Socket(fd: fd)
        do {
            try socket.setOption(SOL_SOCKET, SO_REUSEADDR, 1, name: "SO_REUSEADDR")
            if reusePort { try socket.setOption(SOL_SOCKET, SO_REUSEPORT, 1, name: "SO_REUSEPORT") }
            if address.family == AF_INET6 {
                // "::" means every address of both families; a specific IPv6 address stays IPv6-only.
                let v6Only: Int32 = address.ipText == "::" ? 0 : 1
                try socket.setOption(Int32(IPPROTO_IPV6), IPV6_V6ONLY, v6Only, name: "IPV6_V6ONLY")
            }
            var bindAddress = address
            let bound = withUnsafePointer(to: &bindAddress.storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, address.length) }
            }
            guard bound == 0 else { throw HTTPServerError.system("bind(\(address))", errno: errno) }
            guard Glibc.listen(fd, backlog) == 0 else { throw HTTPServerError.system("listen(\(address))", errno: errno) }
            var actual = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let named = withUnsafeMutablePointer(to: &actual) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard named == 0 else { throw HTTPServerError.system("getsockname(\(address))", errno: errno) }
            return (socket, SocketAddress(storage: actual))
        } catch {
            socket.close()
            throw error
        }
    }

    /// setsockopt with an int value; failure names the option.
    func setOption(_ level: Int32, _ option: Int32, _ value: Int32, name: String) throws {
        var value = value
        guard setsockopt(fd, level, option, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw HTTPServerError.system("setsockopt(\(name))", errno: errno)
        }
    }
}
