import Synchronization

/// The count of connections being served, shared by every loop of a server.
final class ConnectionTally: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func add(_ delta: Int) { count.add(delta, ordering: .relaxed) }
}
