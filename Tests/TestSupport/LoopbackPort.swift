import Glibc

/// Loopback ports for tests that need one with nothing listening on it.
public enum LoopbackPort {
    /// A port nothing listens on right now (bound to 0, then closed): for a server a test starts
    /// itself on a fixed port, where the port must be known before the start.
    public static func free() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestClientError.connect(errno) }
        defer { close(fd) }
        return try boundPort(fd)
    }

    /// A port bound for the whole test run and never listened on, so connecting to it is refused. The
    /// socket stays open: a port released at once could be taken by another test's server running in
    /// parallel, which then answers instead of refusing. 0 when no socket could be bound, which a
    /// connect refuses too.
    public static let refusing: Int = {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return 0 }
        return (try? boundPort(fd)) ?? 0
    }()

    /// Binds `fd` to 127.0.0.1 port 0 and returns the port the kernel chose.
    private static func boundPort(_ fd: Int32) throws -> Int {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else { throw TestClientError.connect(errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
