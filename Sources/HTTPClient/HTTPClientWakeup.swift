import Dispatch

/// A counting semaphore the exchange thread blocks on while a streamed body's buffer is full. A
/// `DispatchSemaphore` (futex-backed on Linux) holds no descriptor, so an exchange costs only the
/// two the exchange ceiling counts (socket and cancellation eventfd; see HTTPExchangeSlots).
final class HTTPClientWakeup: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    /// Wakes one waiter (or the next one to wait).
    func signal() {
        semaphore.signal()
    }

    /// Blocks until signalled; the caller re-checks its state around every wait.
    func wait() {
        semaphore.wait()
    }
}
