import Foundation
import Glibc

/// A blocking TCP client for tests that must control the bytes on the wire: arbitrary or malformed
/// requests, tiny writes, half-close, whole responses with their head parsed, reads until the server
/// closes. Every read gives up after the timeout. It blocks its thread: use it inside `onThread { }`.
public final class RawSocketClient: @unchecked Sendable {
    /// A socket call that failed, or a response that could not be read.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The socket; -1 once closed, so it is never closed twice (a second close could hit a descriptor
    /// another test opened since, with the same number).
    public private(set) var fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host` (an IPv4 or IPv6 literal) on `port`, with Nagle off so tiny writes leave as
    /// they are written; reads time out after `timeout` (generous: a read that succeeds never waits,
    /// and at the start of a full `swift test` on 2 slow cores the synchronous suites can hold both of
    /// the task pool's threads for half a minute, so an async handler under test answers that late).
    public init(host: String = "127.0.0.1", port: Int, timeout: Duration = .seconds(60)) throws {
        fd = try Self.connect(host: host, port: port, timeout: timeout)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close() }

    /// A blocking TCP socket connected to `host` (IPv4 or IPv6 literal) on `port` whose reads give up
    /// after `timeout`; the caller closes it. The one connect routine of the test clients.
    public static func connect(host: String = "127.0.0.1", port: Int, timeout: Duration) throws -> Int32 {
        let isIPv6 = host.contains(":")
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var time = timeval(
            tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        let result: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = Self.connect(fd, to: &address)
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            result = Self.connect(fd, to: &address)
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw Failure(description: "connect: \(String(cString: strerror(code)))")
        }
        return fd
    }

    /// `connect(2)` with an IPv4 or IPv6 socket address, sized by its own type.
    private static func connect<Address>(_ fd: Int32, to address: inout Address) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
    }

    /// Closes the socket now (deinit then does nothing).
    public func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    // MARK: Writing

    /// Sends the UTF-8 bytes of `text`, or throws when the peer is gone.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends everything, or throws when the peer is gone.
    public func send(_ bytes: [UInt8]) throws {
        guard sendIfOpen(bytes) else { throw Failure(description: "send: errno \(errno)") }
    }

    /// Sends everything; false if the server already closed (EPIPE/ECONNRESET), which a refusal may do.
    @discardableResult
    public func sendIfOpen(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Ends our direction: the server reads end of stream.
    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    // MARK: Reading

    /// Reads one response; HEAD responses have no body whatever their Content-Length says.
    public func readResponse(isHead: Bool = false) throws -> RawResponse {
        var headEnd = findHeadEnd()
        while headEnd == nil {
            guard try fill() else { throw Failure(description: "connection closed before a full response head") }
            headEnd = findHeadEnd()
        }
        guard let end = headEnd else { throw Failure(description: "no head") }
        let headText = String(decoding: buffer[0..<end], as: UTF8.self)
        buffer.removeFirst(end)
        var lines = headText.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard !lines.isEmpty else { throw Failure(description: "empty head") }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "bad status line \(statusLine)") }
        var headers: [(String, String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "bad header \(line)") }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = RawResponse(statusLine: statusLine, status: status, headers: headers, body: [])
        let length = isHead ? 0 : Int(response.header("Content-Length") ?? "0") ?? 0
        while buffer.count < length {
            guard try fill() else { throw Failure(description: "connection closed inside the body") }
        }
        response.body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return response
    }

    /// "complete" when a whole response arrives, else how reading it failed (e.g. the connection closed
    /// inside the body).
    public func responseOutcome() -> String {
        do {
            _ = try readResponse()
            return "complete"
        } catch {
            return "\(error)"
        }
    }

    /// Whether the server closed the connection (end of stream) with no further bytes.
    public func readsEndOfStream() throws -> Bool {
        try !fill() && buffer.isEmpty
    }

    /// Bytes received beyond the responses read so far.
    public var unreadBytes: [UInt8] { buffer }

    /// Everything not yet read, up to the server's close or the timeout; `closed` tells which
    /// (an orderly close or a reset: either way the server is done with us).
    public func readUntilClose() -> (bytes: [UInt8], closed: Bool) {
        while true {
            switch receive() {
            case .bytes: continue
            case .closed: return (take(), true)
            case .failed: return (take(), false)
            }
        }
    }

    /// At least `count` bytes, or fewer when the server closes or the timeout passes first.
    public func read(atLeast count: Int) -> [UInt8] {
        while buffer.count < count, case .bytes = receive() {}
        return take()
    }

    private enum Received { case bytes, closed, failed(Int32) }

    private func receive() -> Received {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<count])
            return .bytes
        }
        if count == 0 { return .closed }
        let code = errno
        return code == ECONNRESET ? .closed : .failed(code)
    }

    /// More bytes into the buffer: false at end of stream, throws on a failed read (a timeout among them).
    private func fill() throws -> Bool {
        switch receive() {
        case .bytes: return true
        case .closed: return false
        case .failed(let code): throw Failure(description: "recv: \(String(cString: strerror(code)))")
        }
    }

    private func take() -> [UInt8] {
        defer { buffer = [] }
        return buffer
    }

    private func findHeadEnd() -> Int? {
        buffer.firstRange(of: [13, 10, 13, 10])?.upperBound
    }
}

/// A response as read off the wire, fields in the order they came.
public struct RawResponse: Sendable {
    public var statusLine: String
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    /// The values of the fields called `name` (compared case-insensitively), joined with ", " when it
    /// is repeated (RFC 9110 §5.3); nil when there is none.
    public func header(_ name: String) -> String? {
        let values = headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// How many fields are called `name`.
    public func headerCount(_ name: String) -> Int {
        headers.filter { $0.0.lowercased() == name.lowercased() }.count
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Runs blocking socket work on a thread of its own, so it never starves the cooperative pool the
/// server's handlers run on.
public func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// How many responses a byte stream holds, counted by lines starting `HTTP/1.1 ` (the bodies in these
/// tests end in a newline and never start a line that way).
public func statusLineCount(_ bytes: [UInt8]) -> Int {
    bytes.split(separator: 0x0A, omittingEmptySubsequences: false).filter { $0.starts(with: Array("HTTP/1.1 ".utf8)) }.count
}
