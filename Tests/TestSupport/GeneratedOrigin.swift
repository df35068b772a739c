import Foundation
import Glibc
import HTTPServer
import Synchronization

/// A private-bucket style origin: every request must carry `Authorization: Bearer <token>` (else 403).
/// Objects are generated, never held: `/obj/<bytes>.ts` is `bytes` long and byte i is `i % 251`, so a
/// test can check any range without storing it. Honours single ranges (206, 416) like nginx; one thread
/// per connection, every request recorded.
public final class GeneratedOrigin: Sendable {
    /// A request as the origin saw it.
    public struct Seen: Sendable {
        public var method: String
        public var path: String
        public var range: String?
    }

    /// The port the origin listens on.
    public var port: Int { listener.port }
    /// The bearer token every request must carry.
    public let token: String
    private let listener: TestListener
    private let seen = Mutex<[Seen]>([])
    private let aborted = Atomic<Int>(0)

    /// Starts listening on 127.0.0.1 on a free port; requests must carry `token`.
    public init(token: String = "secret-token") throws {
        self.token = token
        listener = try TestListener()
        let origin = self
        listener.serveEach { origin.serve($0) }
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The expected bytes of an object's range.
    public static func bytes(_ range: ClosedRange<Int>) -> [UInt8] {
        guard range.count <= 65_536 else { return range.map { UInt8($0 % 251) } }
        let start = range.lowerBound % 251
        return Array(pattern[start..<(start + range.count)])
    }

    /// 251 bytes of the pattern more than the largest piece, so any piece is one slice of it.
    public static let pattern: [UInt8] = (0..<(65_536 + 251)).map { UInt8($0 % 251) }

    /// Requests seen for `path` (all when nil).
    public func requests(_ path: String? = nil) -> [Seen] { seen.withLock { all in all.filter { path == nil || $0.path == path } } }

    /// Transfers that ended because the client closed before the whole body was sent.
    public var abortedTransfers: Int { aborted.load(ordering: .relaxed) }

    /// Stops accepting.
    public func stop() { listener.stop() }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        guard let request = TestOrigin.readRequest(fd) else { return }
        let path = TestOrigin.pathOf(request.target)
        seen.withLock { $0.append(Seen(method: request.method, path: path, range: request.headers["Range"])) }
        guard request.headers["Authorization"] == "Bearer \(token)" else {
            TestListener.writeAll(fd, TestOrigin.response(status: 403, reason: "Forbidden", body: Array("no token\n".utf8)))
            return
        }
        if path.hasSuffix(".m3u8") {
            // A variant whose URIs are absolute origin URLs, plus one relative segment.
            let body = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MAP:URI=\"\(baseURL)/obj/100.mp4\"\n#EXTINF:4,\n"
                + "\(baseURL)/obj/1000.ts\n#EXTINF:4,\n../obj/2000.ts\n#EXT-X-ENDLIST\n"
            TestListener.writeAll(fd, TestOrigin.response(status: 200, reason: "OK", headers: [("Content-Type", "application/vnd.apple.mpegurl")], body: Array(body.utf8)))
            return
        }
        guard path.hasPrefix("/obj/"), let size = Int(path.dropFirst(5).prefix { $0.isNumber }) else {
            TestListener.writeAll(fd, TestOrigin.response(status: 404, reason: "Not Found", body: []))
            return
        }
        var status = 200
        var lower = 0
        var upper = size - 1
        var extra: [(String, String)] = [("Content-Type", "video/mp2t"), ("ETag", "\"obj-\(size)\""),
                                          ("Last-Modified", "Tue, 01 Apr 2025 10:00:00 GMT"), ("Accept-Ranges", "bytes")]
        if let range = request.headers["Range"], let parsed = Self.parse(range, size: size) {
            guard let (a, b) = parsed else {
                TestListener.writeAll(fd, TestOrigin.response(status: 416, reason: "Range Not Satisfiable", headers: [("Content-Range", "bytes */\(size)")], body: []))
                return
            }
            (status, lower, upper) = (206, a, b)
            extra.append(("Content-Range", "bytes \(a)-\(b)/\(size)"))
        }
        let length = upper - lower + 1
        var head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Partial Content")\r\n"
        for (name, value) in extra { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(length)\r\nConnection: close\r\n\r\n"
        guard TestListener.writeAll(fd, Array(head.utf8)), request.method != "HEAD" else { return }
        var offset = lower
        while offset <= upper {
            let end = min(upper, offset + 65_535)
            guard TestListener.writeAll(fd, Self.bytes(offset...end)) else {
                aborted.add(1, ordering: .relaxed)
                return
            }
            offset = end + 1
        }
    }

    /// nil: no usable single range (serve 200); .some(nil): unsatisfiable; else the bounds.
    public static func parse(_ header: String, size: Int) -> (Int, Int)?? {
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
