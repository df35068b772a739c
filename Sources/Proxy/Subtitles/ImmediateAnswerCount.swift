import Synchronization

/// How many subtitle requests were answered on the loop thread (for tests: that a cached one was).
final class ImmediateAnswerCount: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func add() { count.add(1, ordering: .relaxed) }
}
