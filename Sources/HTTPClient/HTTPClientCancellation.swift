import CSystem
import Glibc
import Synchronization

/// Wakes a blocked client poll loop when the calling task is cancelled: an eventfd polled next to the
/// socket. The descriptor is guarded so a late `fire` never writes to a closed, possibly reused, fd.
final class HTTPClientCancellation: Sendable {
    private struct State {
        var descriptor: Int32
        var fired: Bool
    }

    private let state: Mutex<State>

    /// Opens the eventfd; without one, cancellation still works through `isFired` between polls.
    init() {
        let fd = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        state = Mutex(State(descriptor: fd, fired: false))
    }

    /// The eventfd to poll for readability, or -1.
    var descriptor: Int32 { state.withLock { $0.descriptor } }

    /// Whether cancellation was requested.
    var isFired: Bool { state.withLock { $0.fired } }

    /// Requests cancellation and wakes the poll loop.
    func fire() {
        state.withLock { state in
            state.fired = true
            guard state.descriptor >= 0 else { return }
            var one: UInt64 = 1
            _ = withUnsafeBytes(of: &one) { Glibc.write(state.descriptor, $0.baseAddress, 8) }
        }
    }

    /// Closes the eventfd once the exchange is over.
    func close() {
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            _ = Glibc.close(state.descriptor)
            state.descriptor = -1
        }
    }
}
