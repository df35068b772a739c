import Glibc

/// Runs blocking exchange work on a fresh detached pthread. Not libdispatch: on Linux its pools
/// add threads slowly when work blocks, so a few hanging origins would delay every other fetch.
enum HTTPClientThread {
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on its own thread; false when the thread could not be created.
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        // The exchange is shallow; 512 KiB instead of the 8 MiB default keeps many threads cheap.
        pthread_attr_setstacksize(&attributes, 512 * 1024)
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            // OpenSSL writes with write(2), which has no MSG_NOSIGNAL: a peer gone mid-write raises
            // SIGPIPE, fatal where the process has not ignored it. That signal is sent to the writing
            // thread; blocked here, it stays pending and is dropped when the thread ends.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, work)
        if status != 0 {
            Unmanaged<Work>.fromOpaque(work).release()
            return false
        }
        return true
    }
}

extension HTTPClientThread {
    /// Runs a blocking exchange on a thread of its own and waits for the outcome it delivers (once).
    /// The calling task's cancellation fires `cancellation`, which the exchange polls; the eventfd is
    /// closed once the exchange is over.
    /// `slot`, taken by the caller before it made anything for the exchange, is given back when the
    /// thread is done (for a stream, once the body has been read or abandoned). With `deliveryIsLast`
    /// (the work delivers as its last step, the connection already pooled or closed) it is given back
    /// just before the outcome is delivered: the waiting task may run its next exchange the moment
    /// it resumes, and must not find the slot of the one it just finished still taken (with
    /// `max_origin_exchanges` 1, a playlist's variant fetch was refused after its own master fetch).
    static func exchange<Value: Sendable>(
        _ cancellation: HTTPClientCancellation,
        releasing slots: HTTPExchangeSlots? = nil,
        deliveryIsLast: Bool = false,
        _ work: @escaping @Sendable (_ deliver: @escaping @Sendable (Result<Value, HTTPClientError>) -> Void) -> Void
    ) async -> Result<Value, HTTPClientError> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let started = start {
                    work { result in
                        if deliveryIsLast {
                            // Its eventfd is closed before the slot goes back (the work polls it no
                            // more), so the descriptors in use stay within the slots' limit.
                            cancellation.close()
                            slots?.release()
                        }
                        continuation.resume(returning: result)
                    }
                    cancellation.close()
                    if !deliveryIsLast { slots?.release() }
                }
                if !started {
                    cancellation.close()
                    slots?.release()
                    continuation.resume(returning: .failure(.connectionLost("pthread_create failed")))
                }
            }
        } onCancel: {
            cancellation.fire()
        }
    }
}

extension HTTPClientThread {
    /// Runs `body` with SIGPIPE blocked on the calling thread and drops one it raised. A pooled https
    /// connection can be closed on any thread (the consumer of a stream, the pool's owner), and
    /// OpenSSL sends its close_notify with write(2), which raises SIGPIPE once the peer has reset.
    static func withoutBrokenPipeSignal(_ body: () -> Void) {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        body()
        var pending = sigset_t()
        if sigpending(&pending) == 0, sigismember(&pending, SIGPIPE) == 1 {
            var noWait = timespec(tv_sec: 0, tv_nsec: 0)
            _ = sigtimedwait(&pipeSignal, nil, &noWait)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
}
