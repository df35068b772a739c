import Synchronization

/// Keys already noticed, so a log line that would repeat on every request is written once per key.
/// Bounded: keys can name client-chosen paths, so past `capacity` keys the set starts again (a line may
/// then be written once more) rather than growing.
final class OnceNotices: Sendable {
    /// Keys kept at most.
    static let capacity = 4096

    private let seen = Mutex<Set<String>>([])

    /// True the first time `key` is passed, false after (until the set is full and starts again).
    func isFirst(_ key: String) -> Bool {
        seen.withLock { seen in
            if seen.count >= Self.capacity, !seen.contains(key) { seen.removeAll(keepingCapacity: true) }
            return seen.insert(key).inserted
        }
    }
}
