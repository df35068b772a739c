import Foundation
import Glibc
import HTTPServer
import Synchronization

/// A private-bucket style origin: every request must carry `Authorization: Bearer <token>` (else 403).
/// Objects are generated, never held: `/obj/<bytes>.ts` is `bytes` long and byte i is `i % 251`, so a
/// test can check any range without storing it. Honours single ranges (206, 416) like nginx; one thread
/// per connection, every request recorded.
final class GeneratedOrigin: Sendable {
    struct Seen: Sendable {
        var method: String
        var path: String
        var range: String?
    }

    let port: Int
    let token: String
    private let listener: Int32
    private let seen = Mutex<[Seen]>([])
    private let aborted = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    init(token: String = "secret-token") throws {
        self.token = token
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 64) == 0 else { throw TestOriginError.setup("generated origin") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let origin = self
        Thread.detachNewThread { origin.acceptLoop() }
    }

    deinit { stop() }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The expected bytes of an object's range.
    static func bytes(_ range: ClosedRange<Int>) -> [UInt8] {
        guard range.count <= 65_536 else { return range.map { UInt8($0 % 251) } }
        let start = range.lowerBound % 251
        return Array(pattern[start..<(start + range.count)])
    }

    /// 251 bytes of the pattern more than the largest piece, so any piece is one slice of it.
    static let pattern: [UInt8] = (0..<(65_536 + 251)).map { UInt8($0 % 251) }

    /// Requests seen for `path` (all when nil).
    func requests(_ path: String? = nil) -> [Seen] { seen.withLock { all in all.filter { path == nil || $0.path == path } } }

    /// Transfers that ended because the client closed before the whole body was sent.
    var abortedTransfers: Int { aborted.load(ordering: .relaxed) }

    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

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
        let wire = Wire()
        guard let request = wire.readRequest(fd) else { return }
        let path = TestOrigin.pathOf(request.target)
        seen.withLock { $0.append(Seen(method: request.method, path: path, range: request.headers["Range"])) }
        guard request.headers["Authorization"] == "Bearer \(token)" else {
            _ = wire.write(fd, TestOrigin.response(status: 403, reason: "Forbidden", body: Array("no token\n".utf8)))
            return
        }
        if path.hasSuffix(".m3u8") {
            // A variant whose URIs are absolute origin URLs, plus one relative segment.
            let body = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MAP:URI=\"\(baseURL)/obj/100.mp4\"\n#EXTINF:4,\n"
                + "\(baseURL)/obj/1000.ts\n#EXTINF:4,\n../obj/2000.ts\n#EXT-X-ENDLIST\n"
            _ = wire.write(fd, TestOrigin.response(status: 200, reason: "OK", headers: [("Content-Type", "application/vnd.apple.mpegurl")], body: Array(body.utf8)))
            return
        }
        guard path.hasPrefix("/obj/"), let size = Int(path.dropFirst(5).prefix { $0.isNumber }) else {
            _ = wire.write(fd, TestOrigin.response(status: 404, reason: "Not Found", body: []))
            return
        }
        var status = 200
        var lower = 0
        var upper = size - 1
        var extra: [(String, String)] = [("Content-Type", "video/mp2t"), ("ETag", "\"obj-\(size)\""),
                                          ("Last-Modified", "Tue, 01 Apr 2025 10:00:00 GMT"), ("Accept-Ranges", "bytes")]
        if let range = request.headers["Range"], let parsed = Self.parse(range, size: size) {
            guard let (a, b) = parsed else {
                _ = wire.write(fd, TestOrigin.response(status: 416, reason: "Range Not Satisfiable", headers: [("Content-Range", "bytes */\(size)")], body: []))
                return
            }
            (status, lower, upper) = (206, a, b)
            extra.append(("Content-Range", "bytes \(a)-\(b)/\(size)"))
        }
        let length = upper - lower + 1
        var head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Partial Content")\r\n"
        for (name, value) in extra { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(length)\r\nConnection: close\r\n\r\n"
        guard wire.write(fd, Array(head.utf8)), request.method != "HEAD" else { return }
        var offset = lower
        while offset <= upper {
            let end = min(upper, offset + 65_535)
            guard wire.write(fd, Self.bytes(offset...end)) else {
                aborted.add(1, ordering: .relaxed)
                return
            }
            offset = end + 1
        }
    }

    /// nil: no usable single range (serve 200); .some(nil): unsatisfiable; else the bounds.
    static func parse(_ header: String, size: Int) -> (Int, Int)?? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let parts = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let n = Int(parts[1]) else { return nil }
            return n == 0 || size == 0 ? .some(nil) : .some((max(0, size - n), size - 1))
        }
        guard let a = Int(parts[0]) else { return nil }
        let b = parts[1].isEmpty ? size - 1 : min(Int(parts[1]) ?? -1, size - 1)
        guard b >= a || parts[1].isEmpty else { return nil }
        return a >= size ? .some(nil) : .some((a, b))
    }
}

/// Request reading and writing for the generated origin (the same wire handling as TestOrigin's).
private struct Wire {
    func readRequest(_ fd: Int32) -> TestOrigin.RecordedRequest? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536, bytes.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
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

    func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}
