import Glibc
import HTTPWire

/// A counting semaphore the exchange thread blocks on while a streamed body's buffer is full.
final class HTTPClientWakeup: @unchecked Sendable {
    // @unchecked: sem_t is made for use across threads; its storage never moves and lives as long as this object.
    private let semaphore: UnsafeMutablePointer<sem_t>

    init() {
        semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Wakes one waiter (or the next one to wait).
    func signal() { sem_post(semaphore) }

    /// Blocks until signalled.
    func wait() {
        // Retries EINTR; sem_wait has no other failure on a valid semaphore.
        _ = SystemCall.perform { Int(sem_wait(semaphore)) }
    }
}
