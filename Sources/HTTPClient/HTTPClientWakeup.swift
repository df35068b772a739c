import CSystem
import Glibc
import HTTPWire

/// A counting semaphore the exchange thread blocks on while a streamed body's buffer is full: an
/// eventfd in semaphore mode (each read takes one post, blocking at zero), so the whole state is one
/// descriptor and the type is Sendable as the compiler checks it.
final class HTTPClientWakeup: Sendable {
    /// The eventfd, or -1 when none could be made (waits then only pause briefly; see `wait`).
    private let descriptor: Int32

    init() {
        descriptor = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_SEMAPHORE))
    }

    deinit {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }

    /// Wakes one waiter (or the next one to wait).
    func signal() {
        guard descriptor >= 0 else { return }
        var one: UInt64 = 1
        _ = SystemCall.perform { Glibc.write(descriptor, &one, MemoryLayout<UInt64>.size) }
    }

    /// Blocks until signalled. Without a descriptor (none left to the process) it pauses 1 ms, and the
    /// caller, which re-checks its state around every wait, polls instead of spinning.
    func wait() {
        guard descriptor >= 0 else {
            usleep(1000)
            return
        }
        var count: UInt64 = 0
        // Retries EINTR; a blocking read of an eventfd has no other failure.
        _ = SystemCall.perform { Glibc.read(descriptor, &count, MemoryLayout<UInt64>.size) }
    }
}
