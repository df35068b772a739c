import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPServer
import Synchronization

/// One streamed https exchange: the head is handed over as soon as it arrives, body pieces queue up
/// to a high-water mark, past which the session task is suspended until the consumer catches up.
final class OriginSecureStreamTransfer: OriginSessionTransfer {
    typealias Head = (status: Int, headers: HTTPHeaders, bodyLength: Int?)
    typealias Piece = Result<[UInt8]?, OriginError>

    private struct State {
        var head = OriginHandoff<Result<Head, OriginError>>()
        var pieces: [[UInt8]] = []
        var bufferedBytes = 0
        var end: OriginError?? = nil
        var consumer: CheckedContinuation<Piece, Never>?
        var suspended = false
        var task: URLSessionDataTask?
    }

    /// Read-ahead past which the task is suspended, and the level at which it resumes.
    static let highWater = 1 << 20
    static let lowWater = 256 * 1024

    private let state = Mutex(State())
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// The task this transfer drives (set once, before it is resumed).
    func attach(_ task: URLSessionDataTask) {
        state.withLock { $0.task = task }
    }

    /// Waits for the head, or the failure that came first.
    func waitForHead(_ continuation: CheckedContinuation<Result<Head, OriginError>, Never>) {
        let early = state.withLock { $0.head.wait(continuation) }
        if let early { continuation.resume(returning: early) }
    }

    func receive(_ response: HTTPURLResponse) -> Bool {
        let (headers, decoded) = OriginSecureTransport.receivedHeaders(response)
        // A decoded body's length is unknown until it ends.
        let length = decoded ? nil : headers["Content-Length"].flatMap(Self.length)
        if let length, length > limit {
            settleHead(.failure(.tooLarge(limit: limit)))
            return false
        }
        let status = response.statusCode
        settleHead(.success((status, headers, length)))
        if status == 401, headers.values("WWW-Authenticate").contains(where: { $0.lowercased().hasPrefix("basic") }) {
            // FoundationNetworking 6.3.1 hangs forever on this response; end the body here.
            finish(nil)
            return false
        }
        return true
    }

    func append(_ data: Data) -> Bool {
        let (accepted, waiter, suspend) = state.withLock { state -> (Bool, CheckedContinuation<Piece, Never>?, URLSessionDataTask?) in
            guard state.end == nil else { return (false, nil, nil) }
            if let consumer = state.consumer {
                state.consumer = nil
                return (true, consumer, nil)
            }
            state.pieces.append([UInt8](data))
            state.bufferedBytes += data.count
            guard state.bufferedBytes > Self.highWater, !state.suspended else { return (true, nil, nil) }
            state.suspended = true
            return (true, nil, state.task)
        }
        waiter?.resume(returning: .success([UInt8](data)))
        suspend?.suspend()
        return accepted
    }

    func complete(_ error: (any Error)?) {
        let failure = error.map { OriginSecureTransport.originError(for: $0) }
        settleHead(.failure(failure ?? .badResponse("no response head")))
        finish(failure)
    }

    /// The next piece; resumes a suspended task once the queue is short again.
    func next() async -> Piece {
        await withCheckedContinuation { (continuation: CheckedContinuation<Piece, Never>) in
            let (ready, resume) = state.withLock { state -> (Piece?, URLSessionDataTask?) in
                if !state.pieces.isEmpty {
                    let piece = state.pieces.removeFirst()
                    state.bufferedBytes -= piece.count
                    var resume: URLSessionDataTask?
                    if state.suspended && state.bufferedBytes < Self.lowWater {
                        state.suspended = false
                        resume = state.task
                    }
                    return (.success(piece), resume)
                }
                if let end = state.end { return (end.map { .failure($0) } ?? .success(nil), nil) }
                if state.suspended {
                    state.suspended = false
                    state.consumer = continuation
                    return (nil, state.task)
                }
                state.consumer = continuation
                return (nil, nil)
            }
            resume?.resume()
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Ends the body: nil for complete, else the error. Later calls are ignored.
    func finish(_ error: OriginError?) {
        let waiter = state.withLock { state -> CheckedContinuation<Piece, Never>? in
            guard state.end == nil else { return nil }
            state.end = .some(error)
            if error != nil {
                state.pieces = []
                state.bufferedBytes = 0
            }
            defer { state.consumer = nil }
            return state.consumer
        }
        waiter?.resume(returning: error.map { .failure($0) } ?? .success(nil))
    }

    /// A Content-Length value: digits only, no overflow.
    static func length(_ text: String) -> Int? {
        let digits = text.trimmingWhitespace()
        guard !digits.isEmpty, digits.count <= 18, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(digits)
    }

    /// Settles the head once; later calls are ignored.
    func settleHead(_ head: Result<Head, OriginError>) {
        let waiter = state.withLock { $0.head.settle(head) }
        waiter?.resume(returning: head)
    }
}
