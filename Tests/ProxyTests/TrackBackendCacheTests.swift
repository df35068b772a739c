import HLS
import HTTPClient
@testable import Proxy
import TestSupport
import Testing

/// The backend cache's bounds and its stale-if-error answers: at most `limits.max_tracks_cache_entries`
/// answers, least recently used forgotten first, and the last good answer served for up to
/// `cache.tracks_stale_seconds` past its TTL while the backend fails, but never over a 404.
@Suite(.timeLimit(.minutes(1))) struct TrackBackendCacheTests {
    typealias Fixture = TrackBackendTests.Fixture

    // MARK: The table

    @Test func theTableForgetsItsLeastRecentlyUsedEntryPastItsCapacity() {
        var table = RecentlyUsedTable<String, Int>(capacity: 3)
        for (index, key) in ["a", "b", "c"].enumerated() { table.set(index, for: key) }
        #expect(table.value(for: "a") == 0)
        // "b" is now the least recently used.
        #expect(table.set(3, for: "d") == "b")
        #expect(table.count == 3)
        #expect(table.peek("b") == nil)
        #expect(table.keysByRecentUse == ["d", "a", "c"])
    }

    @Test func replacingOrRemovingAnEntryKeepsTheOrderConsistent() {
        var table = RecentlyUsedTable<String, Int>(capacity: 2)
        table.set(1, for: "a")
        table.set(2, for: "b")
        #expect(table.set(10, for: "a") == nil)
        #expect(table.keysByRecentUse == ["a", "b"])
        table.remove("a")
        #expect(table.keysByRecentUse == ["b"])
        table.set(3, for: "c")
        table.set(4, for: "d")
        #expect(table.keysByRecentUse == ["d", "c"])
        #expect(table.peek("a") == nil && table.peek("b") == nil)
    }

    @Test func aThousandRandomOperationsAgreeWithASimpleModel() {
        var generator = SeededGenerator(seed: 17)
        var table = RecentlyUsedTable<Int, Int>(capacity: 8)
        var model: [(key: Int, value: Int)] = []  // most recent first
        for step in 0..<1000 {
            let key = Int.random(in: 0..<20, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                table.set(step, for: key)
                model.removeAll { $0.key == key }
                model.insert((key, step), at: 0)
                if model.count > 8 { model.removeLast() }
            case 1:
                let found = table.value(for: key)
                if let index = model.firstIndex(where: { $0.key == key }) {
                    #expect(found == model[index].value)
                    model.insert(model.remove(at: index), at: 0)
                } else {
                    #expect(found == nil)
                }
            default:
                table.remove(key)
                model.removeAll { $0.key == key }
            }
            #expect(table.keysByRecentUse == model.map(\.key))
        }
    }

    // MARK: The entry cap

    @Test func moreAssetsThanTheCapKeepTheCacheAtTheCapAndTheMostRecentCached() async throws {
        let body = Array(#"{"tracks": [\#(TrackBackendTests.english)]}"#.utf8)
        let origin = try TestOrigin(routes: Dictionary(uniqueKeysWithValues: (0..<12).map { ("/api/\($0)", TestOrigin.Behaviour.raw(
            TestOrigin.response(status: 200, headers: [("Content-Type", "application/json")], body: body))) }))
        defer { origin.stop() }
        let fixture = try Fixture(tracksURL: origin.url("/api/0"), limits: #"{"max_tracks_cache_entries": 4}"#)
        for asset in 0..<12 {
            _ = await fixture.backend.tracks(url: origin.url("/api/\(asset)"), set: fixture.set, masterURL: "http://127.0.0.1:9/vod/a/master.m3u8")
            #expect(fixture.backend.cache.documentCount <= 4)
        }
        #expect(fixture.backend.cache.documentCount == 4)
        // The four most recent answers are still kept: asking again costs the backend nothing.
        for asset in 8..<12 {
            _ = await fixture.backend.tracks(url: origin.url("/api/\(asset)"), set: fixture.set, masterURL: "http://127.0.0.1:9/vod/a/master.m3u8")
            #expect(origin.requests(path: "/api/\(asset)").count == 1)
        }
        // The oldest was forgotten, so it is fetched again.
        _ = await fixture.backend.tracks(url: origin.url("/api/0"), set: fixture.set, masterURL: "http://127.0.0.1:9/vod/a/master.m3u8")
        #expect(origin.requests(path: "/api/0").count == 2)
    }

    /// An answer with one track whose source is `bytes` long.
    static func answer(sourceBytes bytes: Int) -> TrackBackendDocument {
        let track = TrackConfig(id: "en", track: SubtitleTrack(name: "English", language: "en"), source: "http://cdn.example/" + String(repeating: "s", count: bytes))
        return .tracks([track], dropped: 0, droppedReasons: [])
    }

    @Test func largeAnswersForgetTheOldestOnesByBytesWhileSmallOnesShareTheBudget() async {
        let large = Self.answer(sourceBytes: 40_000)
        let cost = TrackBackendCache.cost(of: large)
        // Room for two large answers, not three, and far fewer than the entry cap.
        let cache = TrackBackendCache(maxEntries: 1000, maxBytes: 2 * cost + cost / 2)
        for key in ["a", "b", "c"] {
            _ = await cache.document(for: key, successTTL: .seconds(60), failureTTL: .seconds(60), staleTTL: .zero, load: { large })
        }
        #expect(cache.documentCount == 2)
        #expect(!cache.knows("a"))
        #expect(cache.knows("b") && cache.knows("c"))
        #expect(cache.documentBytes == 2 * cost)
        // Small answers: many fit where the large ones were, each evicting only what it needs.
        let small = Self.answer(sourceBytes: 10)
        for index in 0..<20 {
            _ = await cache.document(for: "small-\(index)", successTTL: .seconds(60), failureTTL: .seconds(60), staleTTL: .zero, load: { small })
        }
        #expect(cache.knows("small-0") && cache.knows("small-19"))
        #expect(cache.documentBytes <= 2 * cost + cost / 2)
        // An answer larger than the whole budget is still kept, alone.
        let huge = Self.answer(sourceBytes: 200_000)
        _ = await cache.document(for: "huge", successTTL: .seconds(60), failureTTL: .seconds(60), staleTTL: .zero, load: { huge })
        #expect(cache.documentCount == 1)
        #expect(cache.documentBytes == TrackBackendCache.cost(of: huge))
    }

    // MARK: Stale-if-error

    /// A backend at `/api/a` that answers the good document until `failing` says otherwise.
    static func switchable(_ failing: LockedBox<[UInt8]?>) throws -> TestOrigin {
        let good = TestOrigin.response(
            status: 200, headers: [("Content-Type", "application/json")], body: Array(#"{"tracks": [\#(TrackBackendTests.english)]}"#.utf8))
        return try TestOrigin(routes: ["/api/a": .computed { failing.withLock { $0 } ?? good }])
    }

    static let failures: [(reason: String, answer: [UInt8])] = [
        ("status", TestOrigin.response(status: 503, body: Array("down\n".utf8))),
        ("not_json", TestOrigin.response(status: 200, headers: [("Content-Type", "application/json")], body: Array("<html>".utf8))),
    ]

    @Test(arguments: [0, 1])
    func pastTheTTLAFailingBackendIsAnsweredWithTheLastGoodAnswerOneWarnLineAndTheMetric(failure: Int) async throws {
        let failing = LockedBox<[UInt8]?>(nil)
        let origin = try Self.switchable(failing)
        defer { origin.stop() }
        let fixture = try Fixture(tracksURL: origin.url("/api/a"), cache: #"{"tracks_ttl_seconds": 0, "fallback_ttl_seconds": 60}"#)
        #expect(TrackBackendTests.tracks(await fixture.tracks()).map(\.id) == ["en"])
        failing.withLock { $0 = Self.failures[failure].answer }
        for _ in 0..<3 { #expect(TrackBackendTests.tracks(await fixture.tracks()).map(\.id) == ["en"]) }
        // The failed refresh is kept for fallback_ttl_seconds: asked once, logged once, counted once.
        #expect(origin.requests(path: "/api/a").count == 2)
        let warnings = fixture.warnings.withLock { $0 }.filter { $0.contains("tracks backend failed") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("last good answer is served") == true)
        #expect(fixture.metrics.tracksBackendStaleServed(reason: Self.failures[failure].reason) == 1)
        #expect(fixture.metrics.tracksBackendFetches(failedFor: Self.failures[failure].reason) == 1)
    }

    @Test func aBackendThatIsUnreachablePastTheTTLIsAnsweredWithTheLastGoodAnswer() async throws {
        let origin = try Self.switchable(LockedBox(nil))
        let fixture = try Fixture(tracksURL: origin.url("/api/a"), cache: #"{"tracks_ttl_seconds": 0}"#)
        #expect(TrackBackendTests.tracks(await fixture.tracks()).map(\.id) == ["en"])
        origin.stop()
        #expect(TrackBackendTests.tracks(await fixture.tracks()).map(\.id) == ["en"])
        #expect(fixture.metrics.tracksBackendStaleServed(reason: "unreachable") == 1)
    }

    @Test func aBackend404ForTheAssetReplacesTheCachedAnswer() async throws {
        let failing = LockedBox<[UInt8]?>(nil)
        let origin = try Self.switchable(failing)
        defer { origin.stop() }
        let fixture = try Fixture(tracksURL: origin.url("/api/a"), cache: #"{"tracks_ttl_seconds": 0}"#)
        #expect(TrackBackendTests.tracks(await fixture.tracks()).map(\.id) == ["en"])
        failing.withLock { $0 = TestOrigin.response(status: 404, body: Array("no such asset\n".utf8)) }
        #expect(TrackBackendTests.reason(await fixture.tracks()) == "status: backend answered 404")
        #expect(fixture.metrics.tracksBackendStaleServed(reason: "status") == 0)
        #expect(fixture.warnings.withLock { $0 }.contains { $0.contains("the master gets no tracks from it") })
    }

    @Test func pastTheStaleBoundAFailingBackendGivesNoTracksAsBefore() async throws {
        let failing = LockedBox<[UInt8]?>(nil)
        let origin = try Self.switchable(failing)
        defer { origin.stop() }
        let fixture = try Fixture(tracksURL: origin.url("/api/a"), cache: #"{"tracks_ttl_seconds": 0, "tracks_stale_seconds": 0, "fallback_ttl_seconds": 0}"#)
        #expect(TrackBackendTests.tracks(await fixture.tracks()).map(\.id) == ["en"])
        failing.withLock { $0 = TestOrigin.response(status: 500, body: Array("down\n".utf8)) }
        #expect(TrackBackendTests.reason(await fixture.tracks()) == "status: backend answered 500")
        #expect(fixture.metrics.tracksBackendStaleServed(reason: "status") == 0)
    }

    /// A fixture whose answers are fresh for 10 s and may stand in for 20 s more, with a failed refresh
    /// kept for 60 s: the fallback TTL reaches past the stale bound.
    static func longFallbackFixture(_ origin: TestOrigin, clock: CacheClock) throws -> Fixture {
        try Fixture(
            tracksURL: origin.url("/api/a"), cache: #"{"tracks_ttl_seconds": 10, "tracks_stale_seconds": 20, "fallback_ttl_seconds": 60}"#,
            clock: clock)
    }

    @Test func aFallbackTTLLongerThanTheStaleBoundServesNoTracksPastTheBound() async throws {
        let failing = LockedBox<[UInt8]?>(nil)
        let origin = try Self.switchable(failing)
        defer { origin.stop() }
        let clock = CacheClock.adjustable()
        let fixture = try Self.longFallbackFixture(origin, clock: clock)
        #expect(TrackBackendTests.tracks(await fixture.tracks()).map(\.id) == ["en"])
        failing.withLock { $0 = TestOrigin.response(status: 503, body: Array("down\n".utf8)) }
        clock.advance(by: .seconds(15))
        #expect(TrackBackendTests.tracks(await fixture.tracks()).map(\.id) == ["en"])
        clock.advance(by: .seconds(10))
        // 25 s: inside the stale bound (30 s) and the failure's TTL, so the backend is not asked again.
        #expect(TrackBackendTests.tracks(await fixture.tracks()).map(\.id) == ["en"])
        #expect(origin.requests(path: "/api/a").count == 2)
        clock.advance(by: .seconds(10))
        // 35 s: past the bound the backend is asked again, and its failure gives no tracks.
        #expect(TrackBackendTests.reason(await fixture.tracks()) == "status: backend answered 503")
        #expect(origin.requests(path: "/api/a").count == 3)
    }

    @Test func aFallbackTTLLongerThanTheStaleBoundLetsA404ReplaceTheAnswerAtTheBound() async throws {
        let failing = LockedBox<[UInt8]?>(nil)
        let origin = try Self.switchable(failing)
        defer { origin.stop() }
        let clock = CacheClock.adjustable()
        let fixture = try Self.longFallbackFixture(origin, clock: clock)
        #expect(TrackBackendTests.tracks(await fixture.tracks()).map(\.id) == ["en"])
        failing.withLock { $0 = TestOrigin.response(status: 503, body: Array("down\n".utf8)) }
        clock.advance(by: .seconds(15))
        #expect(TrackBackendTests.tracks(await fixture.tracks()).map(\.id) == ["en"])
        failing.withLock { $0 = TestOrigin.response(status: 404, body: Array("no such asset\n".utf8)) }
        clock.advance(by: .seconds(20))
        #expect(TrackBackendTests.reason(await fixture.tracks()) == "status: backend answered 404")
        #expect(fixture.metrics.tracksBackendStaleServed(reason: "status") == 1)
    }

    // MARK: Config

    @Test func theStaleBoundAndTheEntryCapHaveTheirDefaultsAndAreRead() throws {
        let defaults = try ConfigTestSupport.decode("{}")
        #expect(defaults.cache.tracksStale == 3600)
        #expect(defaults.limits.maxTracksCacheEntries == 10_000)
        let config = try ConfigTestSupport.decode(#"{"cache": {"tracks_stale_seconds": 90}, "limits": {"max_tracks_cache_entries": 50}}"#)
        #expect(config.cache.tracksStale == 90)
        #expect(config.limits.maxTracksCacheEntries == 50)
    }

    @Test(arguments: [
        (#"{"cache": {"tracks_stale_seconds": -1}}"#, "cache.tracks_stale_seconds: must be 0 or more, got -1"),
        (#"{"cache": {"tracks_stale_seconds": "1h"}}"#, "cache.tracks_stale_seconds:"),
        (#"{"limits": {"max_tracks_cache_entries": 0}}"#, "limits.max_tracks_cache_entries: must be greater than 0, got 0"),
        (#"{"limits": {"max_tracks_cache_entries": 1.5}}"#, "limits.max_tracks_cache_entries:"),
    ])
    func aBadStaleBoundOrEntryCapIsReportedByFieldPath(json: String, expected: String) {
        let problems = ConfigTestSupport.problems(json)
        #expect(problems.contains { $0.hasPrefix(expected) }, "\(problems)")
    }
}
