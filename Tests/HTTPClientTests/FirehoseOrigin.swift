import Foundation
import Glibc
import Synchronization

/// A one-connection origin that answers with a Content-Length head and then writes `bodyBytes` as fast
/// as the peer takes them, counting what the kernel accepted and noting when the peer went away.
final class FirehoseOrigin: Sendable {
    let port: Int
    private let listener: Int32
    private let sent = Atomic<Int>(0)
    private let peerGone = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)

    init(bodyBytes: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 4) == 0 else { throw OriginSetupFailure(description: "firehose setup") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let origin = self
        Thread.detachNewThread { origin.serve(bodyBytes: bodyBytes) }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Body bytes the kernel has taken so far.
    var bytesSent: Int { sent.load(ordering: .relaxed) }
    /// Whether a write failed because the client closed.
    var sawPeerClose: Bool { peerGone.load(ordering: .relaxed) }
    /// Whether the writer is done (all sent, or the peer gone).
    var isFinished: Bool { finished.load(ordering: .relaxed) }

    private func serve(bodyBytes: Int) {
        defer { finished.store(true, ordering: .relaxed) }
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        var request = [UInt8](repeating: 0, count: 4096)
        _ = request.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: \(bodyBytes)\r\nContent-Type: video/mp2t\r\n\r\n".utf8)
        _ = head.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let block = [UInt8](repeating: 0x47, count: 65_536)
        var remaining = bodyBytes
        while remaining > 0 {
            let count = min(remaining, block.count)
            let written = block.withUnsafeBytes { send(connection, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 {
                if written < 0 && errno == EINTR { continue }
                peerGone.store(true, ordering: .relaxed)
                return
            }
            remaining -= written
            sent.add(written, ordering: .relaxed)
        }
    }
}
