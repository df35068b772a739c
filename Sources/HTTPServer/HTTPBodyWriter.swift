/// What a streamed body's producer writes to. `write` returns once the connection has taken the piece
/// far enough to want more (backpressure), and throws once the client has gone: that is how a closed
/// connection reaches the work producing the body.
public final class HTTPBodyWriter: Sendable {
    private let send: @Sendable ([UInt8]) async throws -> Void

    /// Makes a writer over a send function (the server's, or a test's).
    public init(_ send: @escaping @Sendable ([UInt8]) async throws -> Void) {
        self.send = send
    }

    /// Writes one piece of the body; empty pieces are ignored.
    public func write(_ piece: [UInt8]) async throws {
        guard !piece.isEmpty else { return }
        try await send(piece)
    }
}
