import Foundation
import HTTPWire
import Synchronization

/// Log lines go to a memory buffer that a background thread writes out, so a request never waits on
/// stdout: the HTTP loop thread may log, and a slow or stuck log reader must not stall serving.
/// Lines are batched (one write per flush, like nginx's buffered access log); when the reader falls
/// `capacity` bytes behind, new lines are dropped and counted rather than held without bound.
final class BufferedLineWriter: Sendable {
    private struct Queue {
        var pending: [UInt8] = []
        var dropped = 0
    }

    private let queue = Mutex(Queue())
    /// Signalled when `pending` crosses `flushThreshold`, so the writer thread flushes before its 50 ms.
    private let wake = DispatchSemaphore(value: 0)
    private let handle: FileHandle
    private let capacity: Int
    private let flushThreshold = 64 * 1024

    /// A writer to `handle` that holds at most `capacity` unwritten bytes.
    init(handle: FileHandle, capacity: Int = 4 << 20) {
        self.handle = handle
        self.capacity = capacity
        let thread = Thread { [unowned self] in self.drainForever() }
        thread.name = "log-writer"
        thread.start()
    }

    /// Queues one line (a newline is added).
    func write(_ line: String) {
        write(bytes: Array(line.utf8))
    }

    /// Queues one line given as UTF-8 bytes (a newline is added).
    func write(bytes line: [UInt8]) {
        let crossed = queue.withLock { queue -> Bool in
            let before = queue.pending.count
            guard before + line.count + 1 <= capacity else {
                queue.dropped += 1
                return false
            }
            queue.pending.append(contentsOf: line)
            queue.pending.append(UInt8(ascii: "\n"))
            // Once per crossing: the writer thread swaps the buffer out and the count starts again.
            return before < flushThreshold && queue.pending.count >= flushThreshold
        }
        if crossed { wake.signal() }
    }

    /// Writes everything queued so far, on the calling thread; for shutdown.
    func flush() {
        let batch = queue.withLock { queue -> [UInt8] in
            let batch = queue.pending
            queue.pending.removeAll(keepingCapacity: true)
            return batch
        }
        emit(batch)
    }

    /// Lines dropped because the reader fell behind or went away.
    var droppedLines: Int {
        queue.withLock { $0.dropped }
    }

    private func drainForever() {
        // Two buffers take turns, each keeping its memory: lines go into one while the other is written
        // out, so appending on the loop thread never lands in fresh pages (bench/README.md).
        var batch: [UInt8] = []
        while true {
            if queue.withLock({ $0.pending.count < flushThreshold }) {
                // Flush at least every 50 ms so lines show up promptly when traffic is light. Dispatch waits
                // only until a deadline; it is read from the one monotonic clock, which on Linux is also
                // dispatch's uptime clock (CLOCK_MONOTONIC).
                let deadline = MonotonicTime.now() + .milliseconds(50)
                _ = wake.wait(timeout: DispatchTime(uptimeNanoseconds: UInt64(clamping: deadline.nanoseconds)))
            }
            queue.withLock { swap(&batch, &$0.pending) }
            emit(batch)
            batch.removeAll(keepingCapacity: true)
        }
    }

    private func emit(_ batch: [UInt8]) {
        guard !batch.isEmpty else { return }
        do {
            // The throwing form: the older `write(_:)` traps on EPIPE, and a vanished log reader must
            // never take the proxy down.
            try handle.write(contentsOf: batch)
        } catch {
            let lines = batch.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            queue.withLock { $0.dropped += lines }
        }
    }
}

/// The process's buffered standard streams.
enum StandardStreams {
    static let output = BufferedLineWriter(handle: .standardOutput)
    static let error = BufferedLineWriter(handle: .standardError)

    static func write(_ line: String, toError: Bool) {
        (toError ? error : output).write(line)
    }

    /// Writes out everything queued; call before the process exits.
    static func flush() {
        output.flush()
        error.flush()
    }
}
