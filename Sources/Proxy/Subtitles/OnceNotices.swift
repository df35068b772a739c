import Synchronization

/// Keys already noticed, so a log line that would repeat on every request is written once per key.
final class OnceNotices: Sendable {
    private let seen = Mutex<Set<String>>([])

    /// True the first time `key` is passed, false after.
    func isFirst(_ key: String) -> Bool {
        seen.withLock { $0.insert(key).inserted }
    }
}
