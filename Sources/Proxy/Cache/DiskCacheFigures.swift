import Synchronization

/// What `/metrics` shows of the disk cache: the request counters, and the size last read from the index.
final class DiskCacheFigures: Sendable {
    private let store: DiskCacheStore
    /// Requests answered and bytes served, and the size last read from the index.
    private let figures = Mutex(DiskCacheMetrics())

    init(store: DiskCacheStore) {
        self.store = store
    }

    /// Counts one request's outcome.
    func record(_ update: (inout DiskCacheCounters) -> Void) {
        figures.withLock { update(&$0.counters) }
    }

    /// The current figures. `/metrics` is answered on the server's loop thread, which must never wait
    /// on a lock held across file I/O (the index lock is, for renames and deletes): when the index is
    /// busy, the size figures are the last ones read.
    var current: DiskCacheMetrics {
        let size = store.index.withLockIfAvailable { index -> (evictions: Int, bytes: Int, entries: Int, pieces: Int, fills: Int, reserved: Int) in
            let pieces = index.pieceCount
            return (index.evictions, index.totalBytes, index.entries.count - pieces, pieces, index.filling.count, index.reservedBytes)
        }
        let errors = store.errors.counts
        return figures.withLock { figures in
            if let size {
                (figures.evictions, figures.bytes, figures.entries, figures.pieces) = (size.evictions, size.bytes, size.entries, size.pieces)
                (figures.fillsRunning, figures.reservedBytes) = (size.fills, size.reserved)
            }
            figures.errors = errors
            return figures
        }
    }
}
