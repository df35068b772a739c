import Foundation
import Glibc
@testable import HTTPServer
import Synchronization

/// An origin that keeps connections open between requests (plain or TLS with the test certificate)
/// and counts what a connection pool is judged by: TCP connections accepted, requests per connection,
/// connections still open. A script decides each answer from the path and the request's place.
final class KeepAliveOrigin: Sendable {
    /// What the origin does with one request.
    enum Answer: Sendable {
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
    struct Place: Sendable {
        var connection: Int
        var request: Int
    }

    typealias Script = @Sendable (_ path: String, _ place: Place) -> Answer

    let port: Int
    private let listener: Int32
    private let script: Script
    private let tls: TLSServerContext?
    private let counts = Mutex(Counts())
    private let released = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)

    private struct Counts {
        var requestsPerConnection: [Int] = []
        var requests: [TestOrigin.RecordedRequest] = []
        /// Descriptors of open connections waiting for their next request.
        var waiting: Set<Int32> = []
        var open = 0
    }

    /// Listens on 127.0.0.1; with `tls`, every connection is TLS with the test server certificate.
    init(tls: Bool = false, script: @escaping Script) throws {
        self.script = script
        self.tls = tls ? try TLSServerContext(
            certificate: TLSTestOrigin.directory + "/server.pem", key: TLSTestOrigin.directory + "/server.key") : nil
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestOriginError.setup("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw TestOriginError.setup("bind/listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let origin = self
        Thread.detachNewThread { origin.acceptLoop() }
    }

    /// The same answer for every request.
    convenience init(tls: Bool = false, always answer: Answer) throws {
        try self.init(tls: tls) { _, _ in answer }
    }

    deinit { stop() }

    /// TCP connections accepted so far.
    var acceptedConnections: Int { counts.withLock { $0.requestsPerConnection.count } }
    /// Request heads read on each connection, in accept order.
    var requestsPerConnection: [Int] { counts.withLock { $0.requestsPerConnection } }
    /// Every request head read, in order.
    var requests: [TestOrigin.RecordedRequest] { counts.withLock { $0.requests } }
    /// Connections the origin has not closed yet (it closes one when the client does).
    var openConnections: Int { counts.withLock { $0.open } }

    /// Lets every `.gated` answer go out.
    func release() { released.store(true, ordering: .relaxed) }

    /// Closes every connection waiting for its next request, as an origin's keep-alive timeout does.
    func closeIdleConnections() {
        counts.withLock { counts in
            for fd in counts.waiting { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// Stops accepting.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        release()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            let index = counts.withLock { counts in
                counts.requestsPerConnection.append(0)
                counts.open += 1
                return counts.requestsPerConnection.count - 1
            }
            let origin = self
            Thread.detachNewThread { origin.serve(fd, index: index) }
        }
    }

    private func serve(_ fd: Int32, index: Int) {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
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
            let request = secure.map { $0.readRequest() } ?? KeepAliveOrigin.readRequest(fd)
            counts.withLock { _ = $0.waiting.remove(fd) }
            guard let request else { return }
            counts.withLock { counts in
                counts.requests.append(request)
                counts.requestsPerConnection[index] += 1
            }
            let write: ([UInt8]) -> Void = { bytes in
                if let secure { secure.write(bytes) } else { _ = KeepAliveOrigin.write(fd, bytes) }
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

    /// Reads one request head (the client sends no body and never pipelines); nil at the close.
    private static func readRequest(_ fd: Int32) -> TestOrigin.RecordedRequest? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: bytes, as: UTF8.self).contains("\r\n\r\n") {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 || bytes.count > 65_536 { return nil }
            bytes.append(contentsOf: chunk[0..<count])
        }
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = (lines.first ?? "").split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return TestOrigin.RecordedRequest(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers)
    }

    /// Writes everything; false when the peer is gone.
    private static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// An HTTP/1.1 response with Content-Length and no Connection field: the connection stays open.
    static func response(_ body: String, status: Int = 200, version: String = "HTTP/1.1", fields: [(String, String)] = []) -> [UInt8] {
        var text = "\(version) \(status) Status\r\nContent-Length: \(body.utf8.count)\r\n"
        for (name, value) in fields { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n" + body).utf8)
    }
}
