import HTTPWire
import Testing
@testable import Proxy

/// The clock the memory caches expire entries on: the monotonic one, or one a test moves ahead.
@Suite struct CacheClockTests {
    @Test func anEntryOfACacheOnAnAdjustableClockExpiresOnlyOnceTheClockPassesItsTTL() {
        let clock = CacheClock.adjustable()
        let cache = MemoryCache<Int>(maxCost: 100, clock: clock)
        cache.store(1, for: "a", cost: 10, ttl: .seconds(60))
        clock.advance(by: .seconds(59))
        #expect(cache.value(for: "a") == 1, "59 s into a 60 s TTL the entry is live")
        clock.advance(by: .seconds(2))
        #expect(cache.value(for: "a") == nil, "61 s into a 60 s TTL the entry has expired")
    }

    @Test func anAdjustableClockReadsNoEarlierThanTheMonotonicOneAndMovesByWhatItIsAdvanced() {
        let clock = CacheClock.adjustable()
        let before = MonotonicTime.now()
        clock.advance(by: .milliseconds(1_500))
        let moved = clock.now()
        #expect(moved - before >= .milliseconds(1_500))
        #expect(CacheClock.system.now() < moved, "the plain clock is not moved by another clock's advance")
    }

    @Test func thePlainClockCannotBeMovedSoAProductionCacheKeepsItsEntries() {
        let cache = MemoryCache<Int>(maxCost: 100)
        cache.store(1, for: "a", cost: 10, ttl: .seconds(60))
        CacheClock.system.advance(by: .seconds(3_600))
        #expect(cache.value(for: "a") == 1)
    }
}
