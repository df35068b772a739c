import Foundation
import Glibc
import Synchronization

/// A one-connection origin that answers with a Content-Length head and then writes `bodyBytes` as fast
/// as the peer takes them, counting what the kernel accepted and noting when the peer went away.
public final class FirehoseOrigin: Sendable {
    /// The port the origin listens on.
    public var port: Int { listener.port }
    private let listener: TestListener
    private let sent = Atomic<Int>(0)
    private let peerGone = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)

    public init(bodyBytes: Int) throws {
        listener = try TestListener()
        let origin = self
        listener.acceptEach { connection in
            // One connection only: stop accepting, then serve it on a thread of its own.
            origin.listener.stop()
            Thread.detachNewThread { origin.serve(connection, bodyBytes: bodyBytes) }
        }
    }

    deinit { listener.stop() }

    /// Body bytes the kernel has taken so far.
    public var bytesSent: Int { sent.load(ordering: .relaxed) }
    /// Whether a write failed because the client closed.
    public var sawPeerClose: Bool { peerGone.load(ordering: .relaxed) }
    /// Whether the writer is done (all sent, or the peer gone).
    public var isFinished: Bool { finished.load(ordering: .relaxed) }

    private func serve(_ connection: Int32, bodyBytes: Int) {
        defer { finished.store(true, ordering: .relaxed) }
        defer { close(connection) }
        _ = TestListener.readHead(connection)
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: \(bodyBytes)\r\nContent-Type: video/mp2t\r\n\r\n".utf8)
        guard TestListener.writeAll(connection, head) else {
            peerGone.store(true, ordering: .relaxed)
            return
        }
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
