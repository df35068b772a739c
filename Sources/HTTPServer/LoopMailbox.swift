import CSystem
import Glibc
import Synchronization

/// How handler results and stop requests reach the loop thread: a lock-protected queue plus an eventfd
/// written only when the queue goes from empty to non-empty.
final class LoopMailbox: Sendable {
    /// A finished handler's response for the connection with `token`.
    struct Completion: Sendable {
        var token: UInt64
        var response: HTTPResponse
    }

    /// A streamed body's next piece (with the producer waiting for it to go out) or its end.
    struct BodyEvent: Sendable {
        enum Kind: Sendable {
            case piece([UInt8], CheckedContinuation<Bool, Never>)
            case end(finished: Bool)
        }

        var token: UInt64
        var kind: Kind
    }

    private struct Contents {
        var completions: [Completion] = []
        var bodyEvents: [BodyEvent] = []
        var stopGraceMilliseconds: Int64?
        var wakePending = false
        var closed = false
    }

    private let contents = Mutex(Contents())
    /// The eventfd the loop polls.
    let wakeFD: Int32

    init() throws {
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFD >= 0 else { throw HTTPServerError.system("eventfd", errno: errno) }
    }

    /// Queues a response; dropped if the loop has already ended.
    func post(_ completion: Completion) {
        contents.withLock { contents in
            guard !contents.closed else { return }
            contents.completions.append(completion)
            wake(&contents)
        }
    }

    /// Queues a body event; once the loop has ended, a piece is answered "not delivered" at once.
    func post(_ event: BodyEvent) {
        let refused = contents.withLock { contents -> Bool in
            guard !contents.closed else { return true }
            contents.bodyEvents.append(event)
            wake(&contents)
            return false
        }
        if refused, case .piece(_, let continuation) = event.kind { continuation.resume(returning: false) }
    }

    /// Asks the loop to stop, finishing in-flight requests within the grace period.
    func requestStop(graceMilliseconds: Int64) {
        contents.withLock { contents in
            guard !contents.closed else { return }
            contents.stopGraceMilliseconds = min(contents.stopGraceMilliseconds ?? .max, graceMilliseconds)
            wake(&contents)
        }
    }

    /// Everything queued since the last call. Resets the eventfd before emptying the queue, under the lock,
    /// so a post racing with this call always leaves either its item here or a fresh wake-up.
    func take() -> (completions: [Completion], bodyEvents: [BodyEvent], stopGraceMilliseconds: Int64?) {
        contents.withLock { contents in
            var counter: eventfd_t = 0
            _ = eventfd_read(wakeFD, &counter)
            contents.wakePending = false
            let taken = contents.completions
            contents.completions = []
            let events = contents.bodyEvents
            contents.bodyEvents = []
            let stop = contents.stopGraceMilliseconds
            contents.stopGraceMilliseconds = nil
            return (taken, events, stop)
        }
    }

    /// Closes the eventfd; later posts are dropped (so they never write to a reused descriptor).
    func close() {
        contents.withLock { contents in
            contents.closed = true
            contents.completions = []
            for event in contents.bodyEvents {
                if case .piece(_, let continuation) = event.kind { continuation.resume(returning: false) }
            }
            contents.bodyEvents = []
            _ = Glibc.close(wakeFD)
        }
    }

    private func wake(_ contents: inout Contents) {
        guard !contents.wakePending else { return }
        contents.wakePending = true
        // A full counter (EAGAIN) still leaves the eventfd readable, which is all the loop needs.
        _ = eventfd_write(wakeFD, 1)
    }
}
