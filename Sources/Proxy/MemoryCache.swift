import Foundation
import Synchronization

/// An in-memory cache with a time to live per entry and a bounded total size, evicting least
/// recently used entries first. Safe to share across tasks.
final class MemoryCache<Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var cost: Int
        var expires: ContinuousClock.Instant
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var totalCost = 0
        var tick: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    private let state = Mutex(State())
    private let maxCost: Int

    /// A cache holding at most `maxCost` bytes (as the caller counts them).
    init(maxCost: Int) {
        self.maxCost = max(0, maxCost)
    }

    /// The live value for `key`, or nil when absent or expired. A lookup that a later one will repeat
    /// (the fast path before the full one) passes `countingMiss: false` so a miss is counted once.
    func value(for key: String, now: ContinuousClock.Instant = .now, countingMiss: Bool = true) -> Value? {
        state.withLock { state in
            // One hash of the key: the entry is found once and marked as used in place.
            guard let index = state.entries.index(forKey: key) else {
                if countingMiss { state.misses += 1 }
                return nil
            }
            guard state.entries.values[index].expires > now else {
                state.totalCost -= state.entries.values[index].cost
                state.entries.remove(at: index)
                if countingMiss { state.misses += 1 }
                return nil
            }
            state.tick &+= 1
            state.entries.values[index].lastUse = state.tick
            state.hits += 1
            return state.entries.values[index].value
        }
    }

    /// Stores `value` for `ttl`; an entry larger than the whole budget, or a non-positive TTL, is not stored.
    func store(_ value: Value, for key: String, cost: Int, ttl: Duration, now: ContinuousClock.Instant = .now) {
        guard ttl > .zero, cost >= 0, cost <= maxCost else { return }
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.totalCost -= old.cost }
            state.tick &+= 1
            state.entries[key] = Entry(value: value, cost: cost, expires: now + ttl, lastUse: state.tick)
            state.totalCost += cost
            while state.totalCost > maxCost, let victim = Self.leastRecentlyUsed(in: state.entries) {
                if let removed = state.entries.removeValue(forKey: victim) { state.totalCost -= removed.cost }
            }
        }
    }

    /// Hit and miss counts since start, for metrics.
    var counts: (hits: Int, misses: Int, bytes: Int) {
        state.withLock { ($0.hits, $0.misses, $0.totalCost) }
    }

    private static func leastRecentlyUsed(in entries: [String: Entry]) -> String? {
        entries.min { $0.value.lastUse < $1.value.lastUse }?.key
    }
}
