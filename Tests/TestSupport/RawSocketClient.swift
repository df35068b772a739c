import Foundation
import Glibc

/// A blocking TCP client that sends arbitrary bytes and reads whole HTTP/1.1 responses, for tests.
/// Use it only inside `offPool { }`: it blocks its thread.
final class RawSocketClient: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The socket; -1 once closed, so it is never closed twice (a second close could hit a descriptor
    /// another test opened since, with the same number).
    private(set) var fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host` (an IPv4 or IPv6 literal) on `port`; reads time out after `timeout` seconds (generous: a loaded CI machine is slow, and a read that succeeds never waits).
    init(host: String = "127.0.0.1", port: Int, timeout: Int = 20) throws {
        let isIPv6 = host.contains(":")
        fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        let result: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard result == 0 else {
            let code = errno
            close()
            throw Failure(description: "connect: \(String(cString: strerror(code)))")
        }
    }

    deinit { close() }

    /// Closes the socket now (deinit then does nothing).
    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += count
        }
    }

    /// Reads one response; HEAD responses have no body whatever their Content-Length says.
    func readResponse(isHead: Bool = false) throws -> RawResponse {
        var headEnd: Int?
        while headEnd == nil {
            if let range = findHeadEnd() { headEnd = range; break }
            guard try fill() else { throw Failure(description: "connection closed before a full response head") }
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
    func responseOutcome() -> String {
        do {
            _ = try readResponse()
            return "complete"
        } catch {
            return "\(error)"
        }
    }

    /// Whether the server closed the connection (end of stream) with no further bytes.
    func readsEndOfStream() throws -> Bool {
        try !fill() && buffer.isEmpty
    }

    /// Bytes received beyond the responses read so far.
    var unreadBytes: [UInt8] { buffer }

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        if count == 0 { return false }
        let code = errno
        if code == ECONNRESET { return false }
        throw Failure(description: "recv: \(String(cString: strerror(code)))")
    }

    private func findHeadEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}

/// A response as read off the wire.
struct RawResponse {
    var statusLine: String
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    func headerCount(_ name: String) -> Int {
        headers.filter { $0.0.lowercased() == name.lowercased() }.count
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Runs blocking socket work on its own thread, so it never starves the pool the server's handlers run on.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try work()) } catch { continuation.resume(throwing: error) }
        }
        thread.start()
    }
}
