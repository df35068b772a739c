extension DiskCache {
    /// Counts one request's outcome.
    func record(_ update: (inout DiskCacheCounters) -> Void) {
        counters.withLock { update(&$0) }
    }

    /// The current figures for `/metrics`.
    var metrics: DiskCacheMetrics {
        let counted = counters.withLock { $0 }
        return state.withLock { state in
            let pieces = state.piecesByKey.values.reduce(0) { $0 + $1.count }
            return DiskCacheMetrics(counters: counted, evictions: state.evictions, bytes: state.totalBytes,
                                    entries: state.entries.count - pieces, pieces: pieces)
        }
    }
}
