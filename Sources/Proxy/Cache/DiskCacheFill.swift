import Foundation
import Synchronization

/// One object (or one range of it, a piece) being copied from the origin into the cache. The copy runs in a task of its own, at the
/// origin's pace, whoever is reading: every client of the object (the one whose miss started it and
/// any that arrive while it runs) reads the temp file as it grows, so they share one download and a
/// client that hangs up does not stop it. It becomes an entry only when exactly the declared number of
/// body bytes arrived.
final class DiskCacheFill: @unchecked Sendable {
    // @unchecked: `handle` and `written` belong to the copying task alone; readers see `progress`.
    enum Outcome: Equatable {
        case running
        case stored
        case failed
    }

    private struct Progress {
        var written = 0
        var outcome = Outcome.running
        var waiters: [(needed: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    let entry: DiskCacheEntry
    let fileName: String
    let tempPath: String
    let bodyOffset: Int
    private let cache: DiskCache
    private let handle: FileHandle
    private let progress = Mutex(Progress())

    init(cache: DiskCache, entry: DiskCacheEntry, fileName: String, tempPath: String, bodyOffset: Int, handle: FileHandle) {
        self.cache = cache
        self.entry = entry
        self.fileName = fileName
        self.tempPath = tempPath
        self.bodyOffset = bodyOffset
        self.handle = handle
    }

    /// A reader that follows this fill. Made before `start`, so a small body cannot be renamed away
    /// before the temp file is opened.
    func makeReader() -> DiskCacheReader? {
        guard let handle = FileHandle(forReadingAtPath: tempPath) else { return nil }
        return DiskCacheReader(entry: entry, bodyOffset: bodyOffset, handle: handle, fill: self)
    }

    /// Starts copying `stream` into the temp file.
    func start(_ stream: OriginStream) {
        Task { await self.copy(stream) }
    }

    /// Body bytes written so far, once at least `needed` are (or the fill ended). Throws when the fill
    /// failed: a reader must not pass on an object the origin did not finish sending.
    func available(atLeast needed: Int) async throws -> Int {
        while true {
            let state: (written: Int, outcome: Outcome) = progress.withLock { ($0.written, $0.outcome) }
            if state.outcome == .failed { throw DiskCacheError.fillFailed }
            if state.written >= needed || state.outcome == .stored { return state.written }
            await withCheckedContinuation { continuation in
                let waiting = progress.withLock { progress in
                    guard progress.outcome == .running, progress.written < needed else { return false }
                    progress.waiters.append((needed, continuation))
                    return true
                }
                if !waiting { continuation.resume() }
            }
        }
    }

    /// Copies the origin body to the temp file, then stores or discards the entry.
    private func copy(_ stream: OriginStream) async {
        defer { stream.cancel() }
        var written = 0
        do {
            while let piece = try await stream.next() {
                guard piece.count <= entry.length - written else { throw DiskCacheError.lengthMismatch }
                try handle.write(contentsOf: piece)
                written += piece.count
                // The last bytes are published only once stored, so a client that has the whole body
                // finds the entry in place on its next request.
                if written < entry.length { publish(written: written, outcome: .running) }
            }
            guard written == entry.length else { throw DiskCacheError.lengthMismatch }
            // Synchronized before the rename: after a crash the name never points at unwritten data.
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            cache.abandon(self)
            publish(written: written, outcome: .failed)
            return
        }
        // Readers hold the temp file open, so they keep reading it after the rename. Even if the
        // rename fails, every byte arrived and they may finish.
        _ = cache.install(self)
        publish(written: written, outcome: .stored)
    }

    private func publish(written: Int, outcome: Outcome) {
        let ready: [CheckedContinuation<Void, Never>] = progress.withLock { progress in
            progress.written = written
            progress.outcome = outcome
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
