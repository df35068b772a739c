import Synchronization

/// A flag set once; `set()` says whether it was already set.
final class LockedFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    /// Sets the flag; true when it was set before.
    func set() -> Bool { flag.exchange(true, ordering: .acquiringAndReleasing) }
}
