import HTTPServer
import Synchronization

/// Whether optional tracks' sources exist: answers kept for `cache.tracks_ttl_seconds`, and one probe
/// in flight per source however many master requests want it at once.
final class SourceProbes: Sendable {
    /// Answers by key (the source URL and who it is fetched for).
    let answers: MemoryCache<Bool>
    private let flights = Mutex<[String: Task<Bool, any Error>]>([:])

    init(maxBytes: Int) {
        answers = MemoryCache(maxCost: maxBytes)
    }

    /// The answer for `key`: kept, being found out by another request, or found out now by `probe`,
    /// which returns the answer and how long to keep it. A probe that throws (load shedding) keeps nothing.
    func exists(_ key: String, probe: @escaping @Sendable () async throws -> (exists: Bool, ttl: Double)) async throws -> Bool {
        if let kept = answers.value(for: key) { return kept }
        let task = flights.withLock { inFlight -> Task<Bool, any Error> in
            if let running = inFlight[key] { return running }
            let task = Task<Bool, any Error> { [answers, self] in
                defer { _ = self.flights.withLock { $0.removeValue(forKey: key) } }
                // A probe that finished between the lookup above and this flight left its answer.
                if let kept = answers.value(for: key, countingMiss: false) { return kept }
                let (exists, ttl) = try await probe()
                answers.store(exists, for: key, cost: key.utf8.count + 64, ttl: ConfigSeconds.duration(ttl))
                return exists
            }
            inFlight[key] = task
            return task
        }
        return try await task.value
    }

    /// Probes in flight (for tests).
    var inFlight: Int { flights.withLock { $0.count } }
}
