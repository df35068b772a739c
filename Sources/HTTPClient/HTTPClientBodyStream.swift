import Synchronization

/// A response body arriving from the exchange thread, one piece at a time, with backpressure: the
/// thread stops reading the origin while `bufferLimit` bytes wait unread. Dropping the stream or
/// calling `cancel()` closes the origin connection.
public final class HTTPClientBodyStream: Sendable {
    let channel: HTTPClientBodyChannel

    init(channel: HTTPClientBodyChannel) {
        self.channel = channel
    }

    deinit {
        channel.cancel()
    }

    /// The next piece of the body, or nil at its end. Throws what ended the exchange early,
    /// `.cancelled` when the stream or the calling task was cancelled.
    public func next() async throws(HTTPClientError) -> [UInt8]? {
        try await channel.next()
    }

    /// Stops the transfer: the exchange thread closes the origin connection, and a waiting `next()` throws.
    public func cancel() {
        channel.cancel()
    }
}

/// The state shared by the consumer and the exchange thread (which must not keep the public stream
/// alive, or dropping it could never cancel).
final class HTTPClientBodyChannel: Sendable {
    private struct State {
        var pieces: [[UInt8]] = []
        var first = 0
        var bufferedBytes = 0
        var end: HTTPClientError?? = nil
        var cancelled = false
        var consumer: CheckedContinuation<Result<[UInt8]?, HTTPClientError>, Never>?
        var producerWaiting = false
        /// The connection that carried the whole body, kept until the consumer reaches the end.
        var finishedConnection: FinishedConnection?
    }

    private let state = Mutex(State())
    private let bufferLimit: Int
    private let cancellation: HTTPClientCancellation
    /// Posted when space frees up or the stream is cancelled; the exchange thread waits on it.
    private let space = HTTPClientWakeup()

    init(bufferLimit: Int, cancellation: HTTPClientCancellation) {
        self.bufferLimit = max(1, bufferLimit)
        self.cancellation = cancellation
    }

    /// The next piece, nil at the end.
    func next() async throws(HTTPClientError) -> [UInt8]? {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<[UInt8]?, HTTPClientError>, Never>) in
                let (ready, wake, finished) = state.withLock { state -> (Result<[UInt8]?, HTTPClientError>?, Bool, FinishedConnection?) in
                    if let piece = Self.take(&state, limit: bufferLimit) { return (.success(piece.0), piece.1, nil) }
                    if state.cancelled { return (.failure(.cancelled), false, nil) }
                    if let end = state.end {
                        defer { state.finishedConnection = nil }
                        return (end.map { .failure($0) } ?? .success(nil), false, state.finishedConnection)
                    }
                    state.consumer = continuation
                    return (nil, false, nil)
                }
                if wake { space.signal() }
                finished?.keep()
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
        return try result.get()
    }

    /// Marks the channel cancelled, wakes both sides, and fires the exchange's cancellation. A
    /// connection waiting for the consumer to reach the end is closed: an abandoned body is never reused.
    func cancel() {
        let (waiter, finished) = state.withLock { state -> (CheckedContinuation<Result<[UInt8]?, HTTPClientError>, Never>?, FinishedConnection?) in
            guard !state.cancelled else { return (nil, nil) }
            state.cancelled = true
            state.pieces = []
            state.bufferedBytes = 0
            defer {
                state.consumer = nil
                state.finishedConnection = nil
            }
            return (state.consumer, state.finishedConnection)
        }
        finished?.close()
        cancellation.fire()
        space.signal()
        waiter?.resume(returning: .failure(.cancelled))
    }

    /// Whether the exchange thread waits for the consumer to make room: it reads nothing more from
    /// the socket until then, so the origin is held back by TCP flow control.
    var isProducerWaiting: Bool { state.withLock { $0.producerWaiting } }

    /// Pops the oldest piece; true when the producer waits for space that is now there.
    private static func take(_ state: inout State, limit: Int) -> ([UInt8], Bool)? {
        guard state.first < state.pieces.count else { return nil }
        let piece = state.pieces[state.first]
        state.pieces[state.first] = []
        state.first += 1
        if state.first == state.pieces.count {
            state.pieces.removeAll(keepingCapacity: true)
            state.first = 0
        }
        state.bufferedBytes -= piece.count
        var wake = false
        if state.producerWaiting && state.bufferedBytes < limit {
            state.producerWaiting = false
            wake = true
        }
        return (piece, wake)
    }

    // MARK: - Exchange thread side

    /// Queues a piece, blocking the exchange thread while the buffer is full. Throws `.cancelled`
    /// once the consumer is gone.
    func push(_ piece: ArraySlice<UInt8>) throws(HTTPClientError) {
        guard !piece.isEmpty else { return }
        while true {
            let (queued, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Result<[UInt8]?, HTTPClientError>, Never>?) in
                if state.cancelled { return (false, nil) }
                guard state.bufferedBytes < bufferLimit else {
                    state.producerWaiting = true
                    return (false, nil)
                }
                if let consumer = state.consumer {
                    state.consumer = nil
                    return (true, consumer)
                }
                state.pieces.append(Array(piece))
                state.bufferedBytes += piece.count
                return (true, nil)
            }
            if let waiter {
                waiter.resume(returning: .success(Array(piece)))
                return
            }
            if queued { return }
            if cancellation.isFired { throw .cancelled }
            space.wait()
        }
    }

    /// Ends the stream: nil for a complete body, else the error that cut it short.
    func finish(_ error: HTTPClientError?) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<[UInt8]?, HTTPClientError>, Never>? in
            guard state.end == nil else { return nil }
            state.end = .some(error)
            defer { state.consumer = nil }
            return state.consumer
        }
        waiter?.resume(returning: error.map { .failure($0) } ?? .success(nil))
    }

    /// Ends a complete body whose connection may carry another request: it goes to `pool` once the
    /// consumer has read to the end (at once if the consumer already waits there), and is closed if
    /// the stream is cancelled or dropped first.
    func finish(keeping connection: sending HTTPClientConnection, in pool: HTTPConnectionPool, for endpoint: HTTPConnectionEndpoint) {
        let finished = FinishedConnection(connection: connection, pool: pool, endpoint: endpoint)
        let (waiter, closing) = state.withLock { state -> (CheckedContinuation<Result<[UInt8]?, HTTPClientError>, Never>?, Bool) in
            guard state.end == nil, !state.cancelled else { return (nil, true) }
            state.end = .some(nil)
            if let consumer = state.consumer {
                state.consumer = nil
                return (consumer, false)
            }
            state.finishedConnection = finished
            return (nil, false)
        }
        if closing {
            finished.close()
        } else if let waiter {
            finished.keep()
            waiter.resume(returning: .success(nil))
        }
    }
}

/// A connection whose response was read to the end, on its way back to a pool.
struct FinishedConnection: Sendable {
    let handoff: ConnectionHandoff
    let pool: HTTPConnectionPool
    let endpoint: HTTPConnectionEndpoint

    init(connection: sending HTTPClientConnection, pool: HTTPConnectionPool, endpoint: HTTPConnectionEndpoint) {
        handoff = ConnectionHandoff(connection)
        self.pool = pool
        self.endpoint = endpoint
    }

    /// Returns the connection to its pool.
    func keep() {
        guard let connection = handoff.take() else { return }
        pool.keep(connection, for: endpoint)
    }

    /// Closes the connection instead (the body was abandoned).
    func close() { handoff.take()?.close() }
}
