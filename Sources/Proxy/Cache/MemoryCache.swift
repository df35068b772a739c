import HTTPWire
import Synchronization

/// An in-memory cache with a time to live per entry and a bounded total size, evicting least
/// recently used entries first. Safe to share across tasks.
///
/// Every operation is O(1): entries live in a slot array threaded on a doubly linked recency list by
/// index (most recent at the head), found through a key-to-slot map. Expired entries go when a lookup
/// meets them, and a sweep that checks a few slots on every store finds the ones nobody asks for again.
final class MemoryCache<Value: Sendable>: Sendable {
    fileprivate typealias Entry = MemoryCacheSlot

    fileprivate struct State {
        var slots: [Entry?] = []
        /// The values, by slot: nil where `slots` is.
        var values: [Value?] = []
        var index: [String: Int] = [:]
        var freeSlots: [Int] = []
        var head = -1
        var tail = -1
        var totalCost = 0
        var sweepCursor = 0
        var nextGeneration: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    /// Slots the expiry sweep checks on each store: enough that it passes every slot while the cache
    /// turns over, few enough that a store stays O(1).
    static var sweepStride: Int { 4 }

    private let state = Mutex(State())
    private let maxCost: Int
    /// What expiry is measured on: the monotonic clock, or a test's adjustable one.
    private let clock: CacheClock

    /// A cache holding at most `maxCost` bytes (as the caller counts them).
    init(maxCost: Int, clock: CacheClock = .system) {
        self.maxCost = max(0, maxCost)
        self.clock = clock
    }

    /// The live value for `key`, or nil when absent or expired. A lookup that a later one will repeat
    /// (the fast path before the full one) passes `countingMiss: false` so a miss is counted once.
    func value(for key: String, now: MonotonicTime? = nil, countingMiss: Bool = true, countingHit: Bool = true) -> Value? {
        let now = now ?? clock.now()
        return state.withLock { state in
            guard let slot = state.index[key], let entry = state.slots[slot] else {
                if countingMiss { state.misses += 1 }
                return nil
            }
            guard entry.expires > now else {
                state.remove(slot: slot)
                if countingMiss { state.misses += 1 }
                return nil
            }
            state.moveToHead(slot)
            if countingHit { state.hits += 1 }
            return state.values[slot]
        }
    }

    /// A handle to the live entry for `key` when its value passes `check`; nil otherwise. Counts
    /// nothing and leaves recency as it is.
    func handle(for key: String, where check: (Value) -> Bool) -> MemoryCacheHandle? {
        let now = clock.now()
        return state.withLock { state in
            guard let slot = state.index[key], let entry = state.slots[slot], entry.expires > now,
                  let value = state.values[slot], check(value)
            else { return nil }
            return MemoryCacheHandle(slot: slot, generation: entry.generation)
        }
    }

    /// Whether the entry `handle` names is still here and live: the same store's entry (not one stored
    /// since for its key or another), not expired. Used as a lookup of its key would be: an expired
    /// entry is dropped, a live one becomes the most recent, and a hit is counted when `countingHit`.
    /// No key is hashed.
    func isLive(_ handle: MemoryCacheHandle, countingHit: Bool = true) -> Bool {
        let now = clock.now()
        return state.withLock { state in
            guard state.slots.indices.contains(handle.slot), let entry = state.slots[handle.slot],
                  entry.generation == handle.generation
            else { return false }
            guard entry.expires > now else {
                state.remove(slot: handle.slot)
                return false
            }
            state.moveToHead(handle.slot)
            if countingHit { state.hits += 1 }
            return true
        }
    }

    /// Counts one hit: for a caller that looked with `countingHit: false` and then used what it found.
    func countHit() {
        state.withLock { $0.hits += 1 }
    }

    /// Stores `value` for `ttl`; an entry larger than the whole budget, or a non-positive TTL, is not stored.
    func store(_ value: Value, for key: String, cost: Int, ttl: Duration, now: MonotonicTime? = nil) {
        let now = now ?? clock.now()
        guard ttl > .zero, cost >= 0, cost <= maxCost else { return }
        let maxCost = maxCost
        state.withLock { state in
            if let old = state.index[key] { state.remove(slot: old) }
            state.sweepExpired(now: now, slots: Self.sweepStride)
            state.insertAtHead(Entry(key: key, cost: cost, expires: now + ttl, generation: state.nextGeneration, previous: -1, next: -1), value: value)
            state.nextGeneration &+= 1
            while state.totalCost > maxCost, state.tail >= 0 { state.remove(slot: state.tail) }
        }
    }

    /// Hit and miss counts since start, for metrics.
    var counts: (hits: Int, misses: Int, bytes: Int) {
        state.withLock { ($0.hits, $0.misses, $0.totalCost) }
    }

    /// The keys from most to least recently used (for tests).
    var keysByRecency: [String] {
        state.withLock { state in
            var keys: [String] = []
            var slot = state.head
            while slot >= 0, let entry = state.slots[slot] {
                keys.append(entry.key)
                slot = entry.next
            }
            return keys
        }
    }
}

/// A slot's bookkeeping, apart from its value (`State.values`, same index): reading it copies no value.
/// Declared outside the generic class, so its copies need no metadata of the value's type.
fileprivate struct MemoryCacheSlot {
    var key: String
    var cost: Int
    var expires: MonotonicTime
    /// Which store made this entry: a handle to it names its slot and this number.
    var generation: UInt64
    /// Neighbours on the recency list: `previous` is more recently used, `next` less; -1 ends it.
    var previous: Int
    var next: Int
}

/// One entry of a `MemoryCache`, as it was when the handle was taken: its slot and the store that made
/// it. An entry stored since in that slot (for any key) has another generation, so the handle is dead.
struct MemoryCacheHandle: Sendable, Equatable {
    let slot: Int
    let generation: UInt64
}

extension MemoryCache.State {
    mutating func insertAtHead(_ entry: MemoryCache.Entry, value: Value) {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = entry
            values[slot] = value
        } else {
            slot = slots.count
            slots.append(entry)
            values.append(value)
        }
        index[entry.key] = slot
        totalCost += entry.cost
        link(slot)
    }

    mutating func remove(slot: Int) {
        guard let entry = slots[slot] else { return }
        unlink(slot)
        slots[slot] = nil
        values[slot] = nil
        index[entry.key] = nil
        totalCost -= entry.cost
        freeSlots.append(slot)
    }

    mutating func moveToHead(_ slot: Int) {
        guard head != slot else { return }
        unlink(slot)
        link(slot)
    }

    /// Checks up to `count` slots from where the last sweep stopped and drops those that expired.
    mutating func sweepExpired(now: MonotonicTime, slots count: Int) {
        guard !slots.isEmpty else { return }
        for _ in 0..<min(count, slots.count) {
            if sweepCursor >= slots.count { sweepCursor = 0 }
            if let entry = slots[sweepCursor], entry.expires <= now { remove(slot: sweepCursor) }
            sweepCursor += 1
        }
    }

    /// Puts a slot that is on no list at the head.
    private mutating func link(_ slot: Int) {
        slots[slot]?.previous = -1
        slots[slot]?.next = head
        if head >= 0 { slots[head]?.previous = slot }
        head = slot
        if tail < 0 { tail = slot }
    }

    private mutating func unlink(_ slot: Int) {
        guard let entry = slots[slot] else { return }
        if entry.previous >= 0 { slots[entry.previous]?.next = entry.next } else { head = entry.next }
        if entry.next >= 0 { slots[entry.next]?.previous = entry.previous } else { tail = entry.previous }
        slots[slot]?.previous = -1
        slots[slot]?.next = -1
    }
}
