import Foundation
import Glibc
import Synchronization

/// A listening socket on an ephemeral loopback port with its accept loop on a thread of its own: the
/// plumbing the raw-socket test origins share.
public final class TestListener: Sendable {
    /// The port the kernel chose.
    public let port: Int
    private let descriptor: Int32
    private let stopped = Atomic<Bool>(false)

    /// Binds 127.0.0.1 (or ::1, or another IPv4 loopback `address` such as 127.0.0.2) on `port` (0: a
    /// free one) and listens; nothing is accepted before `acceptEach` or `serveEach`.
    public init(ipv6: Bool = false, address: String = "127.0.0.1", port requestedPort: Int = 0) throws {
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestOriginError.setup("socket") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var storage = sockaddr_storage()
        var length: socklen_t
        if ipv6 {
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    $0.pointee.sin6_family = sa_family_t(AF_INET6)
                    $0.pointee.sin6_addr = in6addr_loopback
                    $0.pointee.sin6_port = in_port_t(UInt16(requestedPort).bigEndian)
                }
            }
        } else {
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    $0.pointee.sin_family = sa_family_t(AF_INET)
                    $0.pointee.sin_addr.s_addr = inet_addr(address)
                    $0.pointee.sin_port = in_port_t(UInt16(requestedPort).bigEndian)
                }
            }
        }
        let bound = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw TestOriginError.setup("bind/listen")
        }
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let networkPort = withUnsafePointer(to: &storage) { pointer -> UInt16 in
            ipv6
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
        }
        port = Int(UInt16(bigEndian: networkPort))
        descriptor = fd
    }

    deinit { stop() }

    /// True once `stop()` has been called.
    public var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Accepts until stopped, handing each connection's descriptor to `accepted` on the accept thread, in
    /// accept order. `accepted` owns the descriptor and must pass long work on to another thread.
    public func acceptEach(_ accepted: @escaping @Sendable (Int32) -> Void) {
        // The thread, not the listener, holds `accepted` (and so the origin it captures) until the loop ends.
        let listener = self
        Thread.detachNewThread {
            while !listener.isStopped {
                let connection = accept(listener.descriptor, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    return
                }
                accepted(connection)
            }
        }
    }

    /// Accepts until stopped, serving each connection on a thread of its own; `serve` owns the descriptor.
    public func serveEach(_ serve: @escaping @Sendable (Int32) -> Void) {
        acceptEach { connection in Thread.detachNewThread { serve(connection) } }
    }

    /// Stops accepting: shuts the listening socket down and closes it. Later calls do nothing.
    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}
