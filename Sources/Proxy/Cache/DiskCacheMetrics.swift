/// The disk cache figures `/metrics` shows: counters plus the current size.
struct DiskCacheMetrics: Sendable {
    /// Requests and bytes counted since startup.
    var counters = DiskCacheCounters()
    /// Files removed to stay under the budget since startup.
    var evictions = 0
    /// Bytes of all stored files (headers included).
    var bytes = 0
    /// Complete objects stored.
    var entries = 0
    /// Stored ranges.
    var pieces = 0
    /// Disk errors since startup, by operation (`create`, `write`, `sync`, `rename`, `delete`).
    var errors: [String: Int] = [:]
    /// Fills running, and the bytes they reserved against the budget.
    var fillsRunning = 0
    var reservedBytes = 0
}
