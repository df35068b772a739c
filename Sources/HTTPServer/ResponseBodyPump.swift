/// The loop-side state of one streamed response body: its framing, how much is left, and the
/// producer waiting for its last piece to go out. Owned by the loop thread.
final class ResponseBodyPump {
    /// Chunked transfer coding (HTTP/1.1, length unknown), RFC 9112 §7.1.
    let chunked: Bool
    /// Bytes still owed under Content-Length framing; nil when the length is not declared.
    private(set) var remaining: Int?
    /// The producer's pending `write`, resumed with true once its piece is written, false if the client went away.
    var waiter: CheckedContinuation<Bool, Never>?
    /// The producer is done: nil while running, then whether it finished cleanly.
    var outcome: Bool?
    /// The producer wrote more than the declared length: the rest was dropped and the connection must close.
    private(set) var overran = false
    private var wroteChunk = false

    init(length: Int?, chunked: Bool) {
        self.remaining = length
        self.chunked = chunked
    }

    /// Head and body bytes for one piece: the piece, clipped to the declared length, behind its chunk
    /// header (which also closes the previous chunk, so the piece itself is never copied).
    func frame(_ piece: [UInt8]) -> (head: [UInt8], body: [UInt8]) {
        var body = piece
        if let left = remaining {
            if body.count > left {
                body = Array(body.prefix(left))
                overran = true
            }
            remaining = left - body.count
        }
        guard chunked, !body.isEmpty else { return ([], body) }
        var head: [UInt8] = wroteChunk ? [0x0D, 0x0A] : []
        head.append(contentsOf: String(body.count, radix: 16).utf8)
        head.append(contentsOf: [0x0D, 0x0A])
        wroteChunk = true
        return (head, body)
    }

    /// The bytes that end a cleanly finished body (the last-chunk for chunked coding).
    func trailer() -> [UInt8] {
        guard chunked else { return [] }
        return Array((wroteChunk ? "\r\n0\r\n\r\n" : "0\r\n\r\n").utf8)
    }

    /// Whether the body as sent is a complete message under its framing.
    var isComplete: Bool { outcome == true && !overran && (remaining ?? 0) == 0 }

    /// Resumes a waiting producer.
    func resumeWaiter(_ delivered: Bool) {
        let waiter = self.waiter
        self.waiter = nil
        waiter?.resume(returning: delivered)
    }
}
