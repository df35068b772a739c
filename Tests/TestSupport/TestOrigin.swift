import Foundation
import Glibc
import HTTPServer
@testable import HTTPWire
import Synchronization

/// A real origin in the test process: raw sockets on an ephemeral port, one thread per connection,
/// each path answering with a canned behaviour, every request recorded.
public final class TestOrigin: Sendable {
    /// How a path answers.
    public enum Behaviour: Sendable {
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
        /// Waits `after`, writes these bytes (a head promising more body than they hold, say), then keeps
        /// the connection open, sending nothing, until the peer closes it (counted in `connectionsClosedByClient`).
        case stalled([UInt8], after: Duration = .zero)
        /// Writes a Content-Length head for `bodyBytes`, then the body as fast as the client takes it
        /// (counted in `bodyBytesSent`); a client that closes first is counted in `connectionsClosedByClient`.
        case firehose(bodyBytes: Int)
    }

    /// A request as the origin saw it.
    public struct RecordedRequest: Sendable {
        public var method: String
        public var target: String
        public var headers: HTTPHeaders
    }

    /// The port the origin listens on.
    public var port: Int { listener.port }
    private let listener: TestListener
    private let routes: [String: Behaviour]
    private let recorded = Mutex<[RecordedRequest]>([])
    private let closedConnections = Atomic<Int>(0)
    private let received = Atomic<Int>(0)
    private let sentBodyBytes = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)
    private let released = Atomic<Bool>(false)

    /// Starts listening on 127.0.0.1 (or `::1`, or another loopback `address`) on a free port (or `port`).
    public init(routes: [String: Behaviour], ipv6: Bool = false, address: String = "127.0.0.1", port: Int = 0) throws {
        self.routes = routes
        listener = try TestListener(ipv6: ipv6, address: address, port: port)
        let origin = self
        listener.serveEach { origin.serve($0) }
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Requests seen so far, optionally only those for `path`.
    public func requests(path: String? = nil) -> [RecordedRequest] {
        recorded.withLock { all in
            guard let path else { return all }
            return all.filter { TestOrigin.pathOf($0.target) == path }
        }
    }

    /// Bytes read from clients so far, whole request heads or not (a TLS ClientHello counts): how a
    /// test knows an exchange has really reached the origin.
    public var bytesReceived: Int { received.load(ordering: .relaxed) }

    /// Body bytes of `.firehose` answers the kernel has taken so far.
    public var bodyBytesSent: Int { sentBodyBytes.load(ordering: .relaxed) }

    /// Connections the origin is done with (answered, failed or given up), whatever the behaviour.
    public var finishedConnections: Int { finished.load(ordering: .relaxed) }

    /// How many connections ended because the client closed them while the origin was waiting (or,
    /// for `.firehose`, writing).
    public var connectionsClosedByClient: Int { closedConnections.load(ordering: .relaxed) }

    /// Lets every `.gated` answer go out.
    public func release() { released.store(true, ordering: .relaxed) }

    /// True once `stop()` has been called.
    public var isStopped: Bool { listener.isStopped }

    /// Counts a connection the client closed while the origin waited.
    public func noteClientClosed() { closedConnections.add(1, ordering: .relaxed) }

    func noteBodyBytesSent(_ count: Int) { sentBodyBytes.add(count, ordering: .relaxed) }

    /// Stops accepting; hanging connections notice within a few milliseconds and close.
    public func stop() { listener.stop() }

    deinit { stop() }

    private func serve(_ fd: Int32) {
        defer { finished.add(1, ordering: .relaxed) }
        defer { close(fd) }
        let head = TestListener.readHead { buffer in
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count > 0 { received.add(count, ordering: .relaxed) }
            return count
        }
        guard let request = head.flatMap(RecordedRequest.init(head:)) else { return }
        recorded.withLock { $0.append(request) }
        switch routes[TestOrigin.pathOf(request.target)] ?? .raw(TestOrigin.response(status: 404, body: Array("no route".utf8))) {
        case .raw(let bytes):
            write(fd, bytes)
        case .hang:
            waitForPeerClose(fd)
        case .stalled(let bytes, let delay):
            Thread.sleep(forTimeInterval: TestOrigin.seconds(delay))
            guard write(fd, bytes) else { return }
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
        case .firehose(let bodyBytes):
            writeFirehose(fd, bodyBytes: bodyBytes)
        }
    }
}

/// A test origin that could not start listening.
public enum TestOriginError: Error {
    case setup(String)
}
