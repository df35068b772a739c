import Synchronization

/// One read in flight per key: callers that ask while it runs wait for its answer instead of starting
/// their own (several subtitle tracks of one master loading together, a live segment's viewers asking
/// for its PTS at once). The read runs in its own task, so a caller that stops waiting ends nothing;
/// it leaves the table when it ends, and the next caller reads again (the answer is cached by then,
/// or was a failure worth trying again).
final class SharedReads<Value: Sendable>: Sendable {
    private let flights = Mutex<[String: Task<Value, any Error>]>([:])

    /// The answer of the read in flight for `key`, or of `read` started now.
    func value(for key: String, _ read: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = flights.withLock { table in
            if let running = table[key] { return running }
            // Its removal takes the lock, so it waits for this insertion however fast the read ends.
            let started = Task { [self] in
                defer { _ = self.flights.withLock { $0.removeValue(forKey: key) } }
                return try await read()
            }
            table[key] = started
            return started
        }
        return try await task.value
    }

    /// Reads in flight (for tests).
    var inFlight: Int { flights.withLock { $0.count } }
}
