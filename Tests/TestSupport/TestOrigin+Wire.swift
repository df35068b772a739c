import Foundation
import Glibc
import HTTPServer
@testable import HTTPWire

extension TestOrigin {
    /// A complete response with Content-Length.
    public static func response(status: Int, reason: String = "Status", headers: [(String, String)] = [], body: [UInt8]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !headers.contains(where: { $0.0.lowercased() == "content-length" || $0.0.lowercased() == "transfer-encoding" }) {
            text += "Content-Length: \(body.count)\r\n"
        }
        text += "Connection: close\r\n\r\n"
        return Array(text.utf8) + body
    }

    /// A redirect to `location`.
    public static func redirect(_ status: Int = 302, to location: String) -> Behaviour {
        .raw(response(status: status, headers: [("Location", location)], body: []))
    }

    /// A request target without its query.
    public static func pathOf(_ target: String) -> String {
        String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// `duration` in seconds, for Thread.sleep.
    public static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Reads and parses one request head from a socket; nil when none came.
    public static func readRequest(_ fd: Int32) -> RecordedRequest? {
        TestListener.readHead(fd).flatMap(RecordedRequest.init(head:))
    }

    /// Writes everything; false when the peer is gone.
    @discardableResult
    public func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool { TestListener.writeAll(fd, bytes) }

    /// A head, then `bodyBytes` of 0x47 in 64 KiB writes, each counted as the kernel takes it.
    func writeFirehose(_ fd: Int32, bodyBytes: Int) {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: \(bodyBytes)\r\nContent-Type: video/mp2t\r\n\r\n".utf8)
        guard write(fd, head) else {
            noteClientClosed()
            return
        }
        let block = [UInt8](repeating: 0x47, count: 65_536)
        var remaining = bodyBytes
        while remaining > 0 {
            let count = min(remaining, block.count)
            let written = block.withUnsafeBytes { send(fd, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 {
                if written < 0 && errno == EINTR { continue }
                noteClientClosed()
                return
            }
            remaining -= written
            noteBodyBytesSent(written)
        }
    }

    /// Blocks until the client closes the connection (counted) or the origin stops.
    public func waitForPeerClose(_ fd: Int32) {
        var scratch = [UInt8](repeating: 0, count: 256)
        while true {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 20)
            if isStopped { return }
            if ready > 0 {
                let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 {
                    noteClientClosed()
                    return
                }
            }
        }
    }
}

extension TestOrigin.RecordedRequest {
    /// Parses a request head: the request line and its fields; nil when the request line is not three words.
    public init?(head: [UInt8]) {
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = (lines.first ?? "").split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        self.init(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers)
    }
}
