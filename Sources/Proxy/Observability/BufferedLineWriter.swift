import Foundation

/// Log lines go to a memory buffer that a background thread writes out, so a request never waits on
/// stdout: the HTTP loop thread may log, and a slow or stuck log reader must not stall serving.
/// Lines are batched (one write per flush, like nginx's buffered access log); when the reader falls
/// `capacity` bytes behind, new lines are dropped and counted rather than held without bound.
final class BufferedLineWriter: @unchecked Sendable {
    // @unchecked: `pending` and `dropped` are only touched with `condition` locked. The lock is also
    // why the runtime's exclusivity checks on them are left out: they cost more than the append.
    private let condition = NSCondition()
    @exclusivity(unchecked) private var pending: [UInt8] = []
    @exclusivity(unchecked) private var dropped = 0
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
        if line.utf8.withContiguousStorageIfAvailable({ write(bytes: $0) }) == nil {
            Array(line.utf8).withUnsafeBufferPointer { write(bytes: $0) }
        }
    }

    /// Queues one line given as UTF-8 bytes (a newline is added).
    func write(bytes line: UnsafeBufferPointer<UInt8>) {
        condition.lock()
        defer { condition.unlock() }
        guard pending.count + line.count + 1 <= capacity else {
            dropped += 1
            return
        }
        pending.append(contentsOf: line)
        pending.append(UInt8(ascii: "\n"))
        if pending.count >= flushThreshold { condition.signal() }
    }

    /// Writes everything queued so far, on the calling thread; for shutdown.
    func flush() {
        condition.lock()
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        condition.unlock()
        emit(batch)
    }

    /// Lines dropped because the reader fell behind or went away.
    var droppedLines: Int {
        condition.lock()
        defer { condition.unlock() }
        return dropped
    }

    private func drainForever() {
        // Two buffers take turns: lines go into one while the other is written out, and each keeps its
        // memory. (Taking a copy and emptying `pending` gave it fresh memory on every batch: an mmap, a
        // page fault per 4 kB on the loop thread as lines were appended, and a munmap.)
        var batch: [UInt8] = []
        while true {
            condition.lock()
            if pending.count < flushThreshold {
                // Flush at least every 50 ms so lines show up promptly when traffic is light.
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
            }
            swap(&batch, &pending)
            condition.unlock()
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
            condition.lock()
            dropped += batch.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            condition.unlock()
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
