import Foundation
import Glibc

/// A response as the test client saw it on the wire.
struct WireResponse: Sendable {
    var status: Int
    /// Header names lowercased; repeated fields joined with ", ".
    var headers: [String: String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

enum TestClientError: Error { case connect(Int32), io(String), malformed(String) }

/// A minimal HTTP/1.1 client over a raw socket: one request per connection, so what the proxy sends
/// (including redirects) is seen exactly. Blocking I/O runs on its own thread, off the task pool.
enum TestClient {
    static func get(
        port: Int, _ target: String, method: String = "GET", headers: [(String, String)] = []
    ) async throws -> WireResponse {
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let raw = try await exchange(port: port, bytes: Array(request.utf8))
        return try parse(raw, method: method)
    }

    /// Sends bytes, reads until the server closes (or 30 s pass: generous, since a loaded machine running
    /// the parallel suite can stall a request for seconds), returns everything read.
    static func exchange(port: Int, bytes: [UInt8]) async throws -> [UInt8] {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try blockingExchange(port: port, bytes: bytes) })
            }
        }
    }

    /// A blocking TCP socket connected to 127.0.0.1:`port` whose reads give up after `timeout`;
    /// the caller closes it. Shared by every raw-socket client in these tests.
    static func connectLoopback(port: Int, timeout: Duration) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestClientError.connect(errno) }
        var time = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw TestClientError.connect(code)
        }
        return fd
    }

    private static func blockingExchange(port: Int, bytes: [UInt8]) throws -> [UInt8] {
        let fd = try connectLoopback(port: port, timeout: .seconds(30))
        defer { close(fd) }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestClientError.io("send: errno \(errno)") }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                received += buffer[0..<n]
            } else {
                break
            }
        }
        return received
    }

    static func parse(_ raw: [UInt8], method: String) throws -> WireResponse {
        guard let headEnd = raw.firstRange(of: [13, 10, 13, 10]) else { throw TestClientError.malformed("no header end") }
        let head = String(decoding: raw[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw TestClientError.malformed(head) }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        var body = Array(raw[headEnd.upperBound...])
        if let length = headers["content-length"].flatMap(Int.init), method != "HEAD", body.count > length {
            body = Array(body.prefix(length))
        }
        return WireResponse(status: status, headers: headers, body: body)
    }
}
