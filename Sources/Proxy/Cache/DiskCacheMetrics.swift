/// The disk cache figures `/metrics` shows: counters plus the current size.
struct DiskCacheMetrics: Sendable {
    /// Requests and bytes counted since startup.
    var counters: DiskCacheCounters
    /// Files removed to stay under the budget since startup.
    var evictions: Int
    /// Bytes of all stored files (headers included).
    var bytes: Int
    /// Complete objects stored.
    var entries: Int
    /// Stored ranges.
    var pieces: Int
}
