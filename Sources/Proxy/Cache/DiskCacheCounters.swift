/// What the disk cache did since startup, for `/metrics`.
struct DiskCacheCounters: Sendable {
    /// Where the bytes of a response came from.
    enum Source: Sendable {
        case disk
        case origin
    }

    /// Requests answered wholly from disk (no origin request of their own).
    var hits = 0
    /// Requests answered partly from disk, the missing ranges fetched from the origin.
    var partialHits = 0
    /// Cacheable requests answered from the origin alone.
    var misses = 0
    /// Body bytes sent to clients that were read from stored files.
    var bytesFromDisk = 0
    /// Body bytes sent to clients that came from the origin.
    var bytesFromOrigin = 0

    /// Adds body bytes sent from `source`.
    mutating func count(bytes: Int, from source: Source) {
        switch source {
        case .disk: bytesFromDisk &+= bytes
        case .origin: bytesFromOrigin &+= bytes
        }
    }
}

/// The disk cache figures `/metrics` shows: counters plus the current size.
struct DiskCacheMetrics: Sendable {
    var counters: DiskCacheCounters
    var evictions: Int
    /// Bytes of all stored files (headers included).
    var bytes: Int
    /// Complete objects stored.
    var entries: Int
    /// Stored ranges.
    var pieces: Int
}

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
