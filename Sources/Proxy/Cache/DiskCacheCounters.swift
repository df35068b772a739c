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
