extension DiskCache {
    /// Counts one request's outcome.
    func record(_ update: (inout DiskCacheCounters) -> Void) {
        figures.withLock { update(&$0.counters) }
    }

    /// The current figures for `/metrics`. `/metrics` is answered on the server's loop thread, which
    /// must never wait on a lock held across file I/O (the index lock is, for renames and deletes): when
    /// the index is busy, the size figures are the last ones read.
    var metrics: DiskCacheMetrics {
        let size = state.withLockIfAvailable { state -> (evictions: Int, bytes: Int, entries: Int, pieces: Int, fills: Int, reserved: Int) in
            let pieces = state.piecesByKey.values.reduce(0) { $0 + $1.count }
            return (state.evictions, state.totalBytes, state.entries.count - pieces, pieces, state.filling.count, state.reservedBytes)
        }
        return figures.withLock { figures in
            if let size {
                (figures.evictions, figures.bytes, figures.entries, figures.pieces) = (size.evictions, size.bytes, size.entries, size.pieces)
                (figures.fillsRunning, figures.reservedBytes) = (size.fills, size.reserved)
            }
            return figures
        }
    }
}
