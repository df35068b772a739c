import Foundation
import Synchronization

/// One object (or one range of it, a piece) being copied from the origin into the cache. The copy runs in a task of its own, at the
/// origin's pace, whoever is reading: every client of the object (the one whose miss started it and
/// any that arrive while it runs) reads the temp file as it grows, so they share one download and a
/// client that hangs up does not stop it. It becomes an entry only when exactly the declared number of
/// body bytes arrived.
///
/// A write that fails (a full file system, an I/O error) stops the caching, never the response: the
/// object is dropped from the cache, and the copy hands the origin's bytes from that point on to the
/// readers in memory, one piece at a time, going on to the next only once every reader has taken it.
/// Each client still gets the whole body.
final class DiskCacheFill: Sendable {
    enum Outcome: Equatable {
        case running
        case stored
        /// Caching stopped after a disk error; bytes past `diskEnd` are handed over in memory.
        case relaying
        /// Relayed to the end: every byte arrived, not all of them on disk.
        case relayed
        case failed
    }

    /// Where a reader finds the next bytes it needs.
    enum Source {
        /// In the temp file, up to this body offset.
        case disk(end: Int)
        /// In memory: `bytes` are the body from `offset` on.
        case memory([UInt8], offset: Int)
    }

    private struct Progress {
        var written = 0
        var outcome = Outcome.running
        /// Body bytes known to be in the temp file once caching stopped.
        var diskEnd = 0
        /// The piece being handed over in memory, and its body offset.
        var relayed: [UInt8] = []
        var relayedOffset = 0
        /// Readers attached to this fill, by id: the body offset each has read up to.
        var readers: [Int: Int] = [:]
        var nextReader = 0
        var waiters: [(needed: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// The copy, waiting for every reader to take the piece in memory.
        var handedOver: CheckedContinuation<Void, Never>?
    }

    let entry: DiskCacheEntry
    let fileName: String
    let tempPath: String
    let bodyOffset: Int
    /// Bytes reserved against the cache's budget while the fill runs: its whole file, header included.
    let reservedBytes: Int
    /// Where the fill is stored or abandoned once the copy ends.
    private let fills: DiskCacheFills
    /// The temp file, written by the copying task alone; readers open their own and learn how far it
    /// goes from `progress`.
    private let handle: FileHandle
    private let progress = Mutex(Progress())

    init(fills: DiskCacheFills, entry: DiskCacheEntry, fileName: String, tempPath: String, bodyOffset: Int, handle: FileHandle) {
        self.fills = fills
        self.entry = entry
        self.fileName = fileName
        self.tempPath = tempPath
        self.bodyOffset = bodyOffset
        self.reservedBytes = bodyOffset + entry.length
        self.handle = handle
    }

    /// A reader that follows this fill. Made before `start`, so a small body cannot be renamed away
    /// before the temp file is opened; nil once caching stopped (the bytes before it may be gone).
    func makeReader() -> DiskCacheReader? {
        guard let handle = FileHandle(forReadingAtPath: tempPath) else { return nil }
        guard let reader = attach() else {
            try? handle.close()
            return nil
        }
        return DiskCacheReader(entry: entry, bodyOffset: bodyOffset, handle: handle, following: (self, reader))
    }

    /// Attaches a reader; nil when the fill no longer takes readers (caching stopped or failed).
    func attach() -> Int? {
        progress.withLock { progress in
            guard progress.outcome == .running || progress.outcome == .stored else { return nil }
            progress.nextReader += 1
            progress.readers[progress.nextReader] = 0
            return progress.nextReader
        }
    }

    /// A reader is done: the copy no longer waits for it.
    func detach(_ reader: Int) {
        let resume = progress.withLock { progress -> CheckedContinuation<Void, Never>? in
            progress.readers.removeValue(forKey: reader)
            return Self.takeHandOverIfDone(&progress)
        }
        resume?.resume()
    }

    /// Starts copying `stream` into the temp file.
    func start(_ stream: OriginStream) {
        Task { await self.copy(stream) }
    }

    /// Where `reader` finds the bytes from body offset `position` on, once there are some (or the fill
    /// ended). Throws when the fill failed: a reader must not pass on an object the origin did not
    /// finish sending.
    func source(for reader: Int, at position: Int) async throws -> Source {
        while true {
            let found: Source? = try progress.withLock { progress throws(DiskCacheError) -> Source? in
                // A reader that left is not counted in again: the copy would wait for it forever.
                guard progress.readers[reader] != nil else { throw .fillFailed }
                progress.readers[reader] = position
                switch progress.outcome {
                case .failed:
                    throw .fillFailed
                case .running:
                    return progress.written > position ? .disk(end: progress.written) : nil
                case .stored:
                    return .disk(end: progress.written)
                case .relaying, .relayed:
                    if position < progress.diskEnd { return .disk(end: progress.diskEnd) }
                    let end = progress.relayedOffset + progress.relayed.count
                    if position >= progress.relayedOffset, position < end { return .memory(progress.relayed, offset: progress.relayedOffset) }
                    // Past everything that came: the end of the body (the reader then stops short).
                    if progress.outcome == .relayed { return .disk(end: progress.diskEnd) }
                    return nil
                }
            }
            if let found { return found }
            // This reader has taken everything before `position`: the copy may go on.
            let resume = progress.withLock { Self.takeHandOverIfDone(&$0) }
            resume?.resume()
            await withCheckedContinuation { continuation in
                let waiting = progress.withLock { progress in
                    guard progress.outcome == .running || progress.outcome == .relaying else { return false }
                    let available = progress.outcome == .running ? progress.written : progress.relayedOffset + progress.relayed.count
                    guard available <= position else { return false }
                    progress.waiters.append((position + 1, continuation))
                    return true
                }
                if !waiting { continuation.resume() }
            }
        }
    }

    /// `reader` has taken the body up to `position`.
    func advance(_ reader: Int, to position: Int) {
        let resume = progress.withLock { progress -> CheckedContinuation<Void, Never>? in
            guard progress.readers[reader] != nil else { return nil }
            progress.readers[reader] = position
            return Self.takeHandOverIfDone(&progress)
        }
        resume?.resume()
    }

    /// Copies the origin body to the temp file, then stores or discards the entry.
    private func copy(_ stream: OriginStream) async {
        defer { stream.cancel() }
        var written = 0
        var caching = true
        do {
            while let piece = try await stream.next() {
                guard piece.count <= entry.length - written else { throw DiskCacheError.lengthMismatch }
                if caching {
                    do {
                        try fills.write(piece, to: handle, at: written)
                    } catch {
                        caching = false
                        stopCaching(after: written, "write", error)
                    }
                }
                // Nobody left to read what is not cached: the origin transfer ends here.
                if !caching, await !handOver(piece, at: written) { throw DiskCacheError.fillFailed }
                written += piece.count
                // The last bytes are published only once stored, so a client that has the whole body
                // finds the entry in place on its next request.
                if caching, written < entry.length { publish(written: written, outcome: .running) }
            }
            guard written == entry.length else { throw DiskCacheError.lengthMismatch }
            if caching {
                do {
                    // Synchronized before the rename: after a crash the name never points at unwritten data.
                    try handle.synchronize()
                    try handle.close()
                } catch {
                    // Every byte is in the file (readers may finish from it); it is just not kept.
                    caching = false
                    stopCaching(after: written, "sync", error)
                }
            }
        } catch {
            if caching {
                try? handle.close()
                fills.abandon(self)
            }
            publish(written: written, outcome: .failed)
            return
        }
        guard caching else {
            publish(written: written, outcome: .relayed)
            return
        }
        // Readers hold the temp file open, so they keep reading it after the rename. Even if the
        // rename fails, every byte arrived and they may finish.
        _ = fills.install(self)
        publish(written: written, outcome: .stored)
    }

    /// After a disk error: the object is dropped from the cache (logged and counted once per kind), and
    /// readers read the disk up to `diskEnd`, then from memory.
    private func stopCaching(after diskEnd: Int, _ operation: String, _ error: any Error) {
        try? handle.close()
        fills.abandon(self)
        fills.report(operation, error)
        let ready: [CheckedContinuation<Void, Never>] = progress.withLock { progress in
            progress.diskEnd = diskEnd
            progress.written = diskEnd
            progress.relayedOffset = diskEnd
            progress.outcome = .relaying
            let ready = progress.waiters.map(\.continuation)
            progress.waiters.removeAll()
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Offers `piece` (body offset `offset`) to every reader and returns once each has taken it or left;
    /// false when no reader is left.
    private func handOver(_ piece: [UInt8], at offset: Int) async -> Bool {
        guard progress.withLock({ !$0.readers.isEmpty }) else { return false }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready: [CheckedContinuation<Void, Never>] = progress.withLock { progress in
                progress.relayed = piece
                progress.relayedOffset = offset
                progress.handedOver = continuation
                let ready = progress.waiters.map(\.continuation)
                progress.waiters.removeAll()
                if let done = Self.takeHandOverIfDone(&progress) { return ready + [done] }
                return ready
            }
            for waiting in ready { waiting.resume() }
        }
        return true
    }

    /// The copy's continuation, taken, when every attached reader has read past the piece in memory.
    private static func takeHandOverIfDone(_ progress: inout Progress) -> CheckedContinuation<Void, Never>? {
        guard let waiting = progress.handedOver else { return nil }
        let end = progress.relayedOffset + progress.relayed.count
        guard progress.readers.values.allSatisfy({ $0 >= end }) else { return nil }
        progress.handedOver = nil
        return waiting
    }

    private func publish(written: Int, outcome: Outcome) {
        let ready: [CheckedContinuation<Void, Never>] = progress.withLock { progress in
            progress.written = written
            progress.outcome = outcome
            if outcome == .relayed || outcome == .failed {
                progress.relayedOffset = written
                progress.relayed = []
            }
            var ready: [CheckedContinuation<Void, Never>] = []
            progress.waiters.removeAll { waiter in
                guard outcome != .running || waiter.needed <= written else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}
