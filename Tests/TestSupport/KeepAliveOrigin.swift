import Foundation
import Glibc
@testable import HTTPServer
import Synchronization

/// An origin that keeps connections open between requests (plain or TLS with the test certificate)
/// and counts what a connection pool is judged by: TCP connections accepted, requests per connection,
/// connections still open. A script decides each answer from the path and the request's place.
public final class KeepAliveOrigin: Sendable {
    /// What the origin does with one request.
    public enum Answer: Sendable {
        /// Writes the bytes and waits for the next request on the connection.
        case respond([UInt8])
        /// Writes the bytes, then closes.
        case respondAndClose([UInt8])
        /// Waits until `release()`, writes the bytes, and waits for the next request.
        case gated([UInt8])
        /// Closes right after reading the request head, without a byte of answer.
        case closeWithoutAnswer
    }

    /// Where a request sits: its connection (0 for the first accepted) and its place on it (0 first).
    public struct Place: Sendable {
        public var connection: Int
        public var request: Int
    }

    public typealias Script = @Sendable (_ path: String, _ place: Place) -> Answer

    /// The port the origin listens on.
    public var port: Int { listener.port }
    private let listener: TestListener
    private let script: Script
    private let tls: TLSServerContext?
    private let counts = Mutex(Counts())
    private let released = Atomic<Bool>(false)

    private struct Counts {
        var requestsPerConnection: [Int] = []
        var requests: [TestOrigin.RecordedRequest] = []
        /// Descriptors of open connections waiting for their next request.
        var waiting: Set<Int32> = []
        var open = 0
    }

    /// Listens on 127.0.0.1 (or another loopback `address`, on `port` when not 0); with `tls`, every
    /// connection is TLS with the test server certificate.
    public init(tls: Bool = false, address: String = "127.0.0.1", port: Int = 0, script: @escaping Script) throws {
        self.script = script
        self.tls = tls ? try TLSServerContext(
            certificate: TLSTestOrigin.directory + "/server.pem", key: TLSTestOrigin.directory + "/server.key") : nil
        listener = try TestListener(address: address, port: port)
        let origin = self
        listener.acceptEach { origin.accepted($0) }
    }

    /// The same answer for every request.
    public convenience init(tls: Bool = false, address: String = "127.0.0.1", port: Int = 0, always answer: Answer) throws {
        try self.init(tls: tls, address: address, port: port) { _, _ in answer }
    }

    deinit { stop() }

    /// TCP connections accepted so far.
    public var acceptedConnections: Int { counts.withLock { $0.requestsPerConnection.count } }
    /// Request heads read on each connection, in accept order.
    public var requestsPerConnection: [Int] { counts.withLock { $0.requestsPerConnection } }
    /// Every request head read, in order.
    public var requests: [TestOrigin.RecordedRequest] { counts.withLock { $0.requests } }
    /// Connections the origin has not closed yet (it closes one when the client does).
    public var openConnections: Int { counts.withLock { $0.open } }

    /// Lets every `.gated` answer go out.
    public func release() { released.store(true, ordering: .relaxed) }

    /// Closes every connection waiting for its next request, as an origin's keep-alive timeout does.
    public func closeIdleConnections() {
        counts.withLock { counts in
            for fd in counts.waiting { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// Stops accepting.
    public func stop() {
        release()
        listener.stop()
    }

    /// Counts a new connection on the accept thread, so connections are numbered in accept order.
    private func accepted(_ fd: Int32) {
        let index = counts.withLock { counts in
            counts.requestsPerConnection.append(0)
            counts.open += 1
            return counts.requestsPerConnection.count - 1
        }
        let origin = self
        Thread.detachNewThread { origin.serve(fd, index: index) }
    }

    private func serve(_ fd: Int32, index: Int) {
        TestListener.blockBrokenPipeSignal()
        let secure = tls.flatMap { $0.accept(fd) }
        defer {
            secure?.close()
            counts.withLock { counts in
                counts.waiting.remove(fd)
                counts.open -= 1
                close(fd)
            }
        }
        if tls != nil && secure == nil { return }
        var place = Place(connection: index, request: 0)
        while true {
            counts.withLock { _ = $0.waiting.insert(fd) }
            let request = secure.map { $0.readRequest() } ?? TestOrigin.readRequest(fd)
            counts.withLock { _ = $0.waiting.remove(fd) }
            guard let request else { return }
            counts.withLock { counts in
                counts.requests.append(request)
                counts.requestsPerConnection[index] += 1
            }
            let write: ([UInt8]) -> Void = { bytes in
                if let secure { secure.write(bytes) } else { TestListener.writeAll(fd, bytes) }
            }
            switch script(TestOrigin.pathOf(request.target), place) {
            case .respond(let bytes):
                write(bytes)
            case .respondAndClose(let bytes):
                write(bytes)
                return
            case .gated(let bytes):
                while !released.load(ordering: .relaxed) { Thread.sleep(forTimeInterval: 0.005) }
                write(bytes)
            case .closeWithoutAnswer:
                return
            }
            place.request += 1
        }
    }

    /// An HTTP/1.1 response with Content-Length and no Connection field: the connection stays open.
    public static func response(_ body: String, status: Int = 200, version: String = "HTTP/1.1", fields: [(String, String)] = []) -> [UInt8] {
        var text = "\(version) \(status) Status\r\nContent-Length: \(body.utf8.count)\r\n"
        for (name, value) in fields { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n" + body).utf8)
    }
}
