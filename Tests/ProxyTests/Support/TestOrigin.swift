import Foundation
import Glibc
import HTTPServer
@testable import HTTPWire
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
        /// Writes the bytes made when the request arrives (for answers naming the origin's own port), then closes.
        case computed(@Sendable () -> [UInt8])
    }

    /// A request as the origin saw it.
    struct RecordedRequest: Sendable {
        var method: String
        var target: String
        var headers: HTTPHeaders
    }

    /// The port the origin listens on.
    var port: Int { listener.port }
    private let listener: TestListener
    private let routes: [String: Behaviour]
    private let recorded = Mutex<[RecordedRequest]>([])
    private let closedConnections = Atomic<Int>(0)
    private let released = Atomic<Bool>(false)

    /// Starts listening on 127.0.0.1 (or `::1`, or another loopback `address`) on a free port (or `port`).
    init(routes: [String: Behaviour], ipv6: Bool = false, address: String = "127.0.0.1", port: Int = 0) throws {
        self.routes = routes
        listener = try TestListener(ipv6: ipv6, address: address, port: port)
        let origin = self
        listener.serveEach { origin.serve($0) }
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

    /// True once `stop()` has been called.
    var isStopped: Bool { listener.isStopped }

    /// Counts a connection the client closed while the origin waited.
    func noteClientClosed() { closedConnections.add(1, ordering: .relaxed) }

    /// Stops accepting; hanging connections notice within a few milliseconds and close.
    func stop() { listener.stop() }

    deinit { stop() }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        guard let request = TestOrigin.readRequest(fd) else { return }
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
        case .computed(let make):
            write(fd, make())
        }
    }
}

enum TestOriginError: Error {
    case setup(String)
}
