import Foundation
import Glibc
import HTTPServer
import Synchronization

/// A real origin in the test process: raw sockets on an ephemeral port, one thread per connection,
/// each path answering with a canned behaviour, every request recorded.
final class TestOrigin: Sendable {
    /// How a path answers.
    enum Behaviour: Sendable {
        /// Writes these bytes, then closes.
        case raw([UInt8])
        /// Reads the request, then never answers (until the peer or the test closes).
        case hang
        /// Writes one byte per interval, then closes.
        case drip([UInt8], interval: Duration)
        /// Waits, writes the bytes, then closes.
        case delayed([UInt8], delay: Duration)
        /// Waits until the test calls `release()`, writes the bytes, then closes.
        case gated([UInt8])
    }

    /// A request as the origin saw it.
    struct RecordedRequest: Sendable {
        var method: String
        var target: String
        var headers: HTTPHeaders
    }

    let port: Int
    private let listener: Int32
    private let routes: [String: Behaviour]
    private let recorded = Mutex<[RecordedRequest]>([])
    private let closedConnections = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let released = Atomic<Bool>(false)

    /// Starts listening on 127.0.0.1 (or `::1`) on a free port.
    init(routes: [String: Behaviour], ipv6: Bool = false) throws {
        self.routes = routes
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestOriginError.setup("socket") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var bound: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw TestOriginError.setup("bind/listen")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let networkPort = withUnsafePointer(to: &storage) { pointer -> UInt16 in
            ipv6
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
        }
        port = Int(UInt16(bigEndian: networkPort))
        listener = fd
        let origin = self
        Thread.detachNewThread { origin.acceptLoop() }
    }

    /// `http://127.0.0.1:PORT/path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Requests seen so far, optionally only those for `path`.
    func requests(path: String? = nil) -> [RecordedRequest] {
        recorded.withLock { all in
            guard let path else { return all }
            return all.filter { TestOrigin.pathOf($0.target) == path }
        }
    }

    /// How many connections ended because the client closed them while the origin was waiting.
    var connectionsClosedByClient: Int { closedConnections.load(ordering: .relaxed) }

    /// Lets every `.gated` answer go out.
    func release() { released.store(true, ordering: .relaxed) }

    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    func noteClientClosed() { closedConnections.add(1, ordering: .relaxed) }

    /// Stops accepting; hanging connections notice within a few milliseconds and close.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            let origin = self
            Thread.detachNewThread { origin.serve(connection) }
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        guard let request = readRequest(fd) else { return }
        recorded.withLock { $0.append(request) }
        switch routes[TestOrigin.pathOf(request.target)] ?? .raw(TestOrigin.response(status: 404, body: Array("no route".utf8))) {
        case .raw(let bytes):
            write(fd, bytes)
        case .hang:
            waitForPeerClose(fd)
        case .drip(let bytes, let interval):
            for byte in bytes {
                guard write(fd, [byte]) else { return }
                Thread.sleep(forTimeInterval: TestOrigin.seconds(interval))
            }
        case .delayed(let bytes, let delay):
            Thread.sleep(forTimeInterval: TestOrigin.seconds(delay))
            write(fd, bytes)
        case .gated(let bytes):
            while !released.load(ordering: .relaxed) && !isStopped { Thread.sleep(forTimeInterval: 0.005) }
            write(fd, bytes)
        }
    }
}

enum TestOriginError: Error {
    case setup(String)
}
