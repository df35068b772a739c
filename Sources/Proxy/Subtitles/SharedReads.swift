import Synchronization

/// One read in flight per key: callers that ask while it runs wait for its answer instead of starting
/// their own (several subtitle tracks of one master loading together, a live segment's viewers asking
/// for its PTS at once). The read runs in its own task and every caller waits for its end, cancelled
/// or not (the read is bounded by its own deadlines); it leaves the table when it ends, and the next
/// caller reads again (the answer is cached by then, or was a failure worth trying again). Whether a
/// caller joined a read it did not start is told, so it can read for itself when the answer was made
/// with another caller's request and failed.
final class SharedReads<Value: Sendable>: Sendable {
    private let flights = Mutex<[String: Task<Value, any Error>]>([:])
    private let joins = Atomic<Int>(0)

    /// The answer of the read in flight for `key` (`joined`), or of `read` started now.
    func value(for key: String, _ read: @escaping @Sendable () async throws -> Value) async -> (answer: Result<Value, any Error>, joined: Bool) {
        let (task, joined) = flights.withLock { table -> (Task<Value, any Error>, Bool) in
            if let running = table[key] {
                joins.add(1, ordering: .relaxed)
                return (running, true)
            }
            // Its removal takes the lock, so it waits for this insertion however fast the read ends.
            let started = Task { [self] in
                defer { _ = self.flights.withLock { $0.removeValue(forKey: key) } }
                return try await read()
            }
            table[key] = started
            return (started, false)
        }
        return (await task.result, joined)
    }

    /// Reads in flight (for tests).
    var inFlight: Int { flights.withLock { $0.count } }

    /// Callers so far that joined a read in flight (for tests).
    var joined: Int { joins.load(ordering: .relaxed) }
}
