import HTTPWire
import Testing
@testable import Proxy

/// The in-memory cache's LRU order, byte accounting and expiry, with the clock passed in.
@Suite struct MemoryCacheTests {
    let start = MonotonicTime.now()
    let minute = Duration.seconds(60)

    /// A handle answers as a lookup of its key would: live, most recent and counted while the entry is
    /// the one it was taken from; dead once that entry expired (then dropped), was replaced or evicted.
    @Test func aHandleIsLiveOnlyForTheEntryItWasTakenFrom() {
        let clock = CacheClock.adjustable()
        let cache = MemoryCache<Int>(maxCost: 20, clock: clock)
        cache.store(1, for: "a", cost: 10, ttl: minute)
        cache.store(2, for: "b", cost: 10, ttl: .seconds(5))
        #expect(cache.handle(for: "a", where: { $0 == 2 }) == nil, "the check fails")
        #expect(cache.handle(for: "missing", where: { _ in true }) == nil)
        guard let a = cache.handle(for: "a", where: { $0 == 1 }), let b = cache.handle(for: "b", where: { _ in true }) else {
            Issue.record("no handle for a stored entry")
            return
        }
        #expect(cache.keysByRecency == ["b", "a"], "taking a handle leaves recency as it is")
        let hits = cache.counts.hits
        #expect(cache.isLive(a))
        #expect(cache.keysByRecency == ["a", "b"])
        #expect(cache.counts.hits == hits + 1)
        #expect(cache.isLive(a, countingHit: false))
        #expect(cache.counts.hits == hits + 1)

        clock.advance(by: .seconds(6))
        #expect(!cache.isLive(b))
        #expect(cache.keysByRecency == ["a"], "an expired entry is dropped")

        cache.store(3, for: "a", cost: 10, ttl: minute)
        #expect(!cache.isLive(a), "replaced under the same key")
        guard let replaced = cache.handle(for: "a", where: { $0 == 3 }) else {
            Issue.record("no handle for the replacement")
            return
        }
        cache.store(4, for: "c", cost: 10, ttl: minute)
        cache.store(5, for: "d", cost: 10, ttl: minute)
        #expect(cache.keysByRecency == ["d", "c"])
        #expect(!cache.isLive(replaced), "evicted, its slot filled for another key")
        #expect(!cache.isLive(MemoryCacheHandle(slot: 99, generation: 0)), "a slot the cache never had")
    }

    @Test func theLeastRecentlyUsedEntryIsEvictedFirst() {
        let cache = MemoryCache<Int>(maxCost: 30)
        cache.store(1, for: "a", cost: 10, ttl: minute, now: start)
        cache.store(2, for: "b", cost: 10, ttl: minute, now: start)
        cache.store(3, for: "c", cost: 10, ttl: minute, now: start)
        #expect(cache.value(for: "a", now: start) == 1)  // a is now the most recent; b the least
        cache.store(4, for: "d", cost: 10, ttl: minute, now: start)
        #expect(cache.value(for: "b", now: start) == nil)
        #expect(cache.keysByRecency == ["d", "a", "c"])
    }

    @Test func aStoreEvictsAsManyEntriesAsItNeedsRoomFor() {
        let cache = MemoryCache<Int>(maxCost: 30)
        for (number, key) in ["a", "b", "c"].enumerated() { cache.store(number, for: key, cost: 10, ttl: minute, now: start) }
        cache.store(9, for: "big", cost: 25, ttl: minute, now: start)
        #expect(cache.keysByRecency == ["big"])
        #expect(cache.counts.bytes == 25)
    }

    @Test func bytesAreCountedOnStoreReplaceEvictionAndExpiry() {
        let cache = MemoryCache<Int>(maxCost: 100)
        cache.store(1, for: "a", cost: 40, ttl: minute, now: start)
        cache.store(2, for: "b", cost: 30, ttl: .seconds(1), now: start)
        #expect(cache.counts.bytes == 70)
        cache.store(3, for: "a", cost: 10, ttl: minute, now: start)  // replacing frees the old cost
        #expect(cache.counts.bytes == 40)
        #expect(cache.value(for: "b", now: start + .seconds(2)) == nil)  // expired on access
        #expect(cache.counts.bytes == 10)
        cache.store(4, for: "c", cost: 100, ttl: minute, now: start)  // evicts a to fit
        #expect(cache.counts.bytes == 100)
        #expect(cache.keysByRecency == ["c"])
    }

    @Test func anEntryLargerThanTheBudgetOrWithoutTTLIsNotStored() {
        let cache = MemoryCache<Int>(maxCost: 10)
        cache.store(1, for: "a", cost: 11, ttl: minute, now: start)
        cache.store(2, for: "b", cost: 1, ttl: .zero, now: start)
        #expect(cache.keysByRecency.isEmpty)
        #expect(cache.counts.bytes == 0)
    }

    @Test func anExpiredEntryIsAMissAndIsRemoved() {
        let cache = MemoryCache<Int>(maxCost: 100)
        cache.store(1, for: "a", cost: 5, ttl: .seconds(2), now: start)
        #expect(cache.value(for: "a", now: start + .seconds(1)) == 1)
        #expect(cache.value(for: "a", now: start + .seconds(2)) == nil)
        #expect(cache.keysByRecency.isEmpty)
        #expect(cache.counts.hits == 1)
        #expect(cache.counts.misses == 1)
    }

    @Test func expiredEntriesNobodyAsksForAreSweptByLaterStores() {
        let cache = MemoryCache<Int>(maxCost: 10_000)
        for number in 0..<50 { cache.store(number, for: "old\(number)", cost: 10, ttl: .seconds(1), now: start) }
        let later = start + .seconds(5)
        // Each store checks a few slots; within one pass over the slots every expired one is gone.
        for number in 0..<(50 / MemoryCache<Int>.sweepStride + 1) {
            cache.store(number, for: "new\(number)", cost: 10, ttl: minute, now: later)
        }
        #expect(!cache.keysByRecency.contains { $0.hasPrefix("old") })
        #expect(cache.counts.bytes == 10 * (50 / MemoryCache<Int>.sweepStride + 1))
    }

    @Test func slotsFreedByEvictionAreReusedAndTheListStaysConsistent() {
        let cache = MemoryCache<Int>(maxCost: 50)
        for number in 0..<1_000 {
            cache.store(number, for: "k\(number % 97)", cost: 10, ttl: minute, now: start)
            _ = cache.value(for: "k\((number * 7) % 97)", now: start)
        }
        let keys = cache.keysByRecency
        #expect(keys.count == 5)
        #expect(Set(keys).count == 5)
        #expect(cache.counts.bytes == 50)
    }
}
