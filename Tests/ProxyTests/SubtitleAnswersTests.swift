import HLS
import HTTPServer
import HTTPWire
import Testing
import TestSupport
@testable import Proxy

/// A kept subtitle answer is given again only while both caches hold the very timeline and cues it was
/// made from, asked as the full path asks them; and the table stays within its bounds.
@Suite struct SubtitleAnswersTests {
    static let url = SubtitleURL(setName: "s", trackID: "en", masterTarget: "/files/master.m3u8", resource: .segment(0))

    static func answer(_ text: String) -> RouteResponse {
        RouteResponse(route: .subtitle, response: HTTPResponse(status: .ok, headers: HTTPHeaders(), bytes: Array(text.utf8)))
    }

    static func cues() -> SubtitleTrackCues {
        SubtitleTrackCues(document: WebVTTDocument(cues: [WebVTTCue(start: 0, end: 1, payload: ["x"])]), isFallback: false)
    }

    /// The two caches, with a timeline under "t" and cues under "c".
    struct Caches {
        let clock = CacheClock.adjustable()
        let timelines: MemoryCache<VideoTimeline>
        let documents: MemoryCache<SubtitleTrackCues>
        let timeline = VideoTimeline(durations: [6, 6], playlistType: "VOD")
        let cues = SubtitleAnswersTests.cues()

        init() {
            timelines = MemoryCache(maxCost: 1 << 20, clock: clock)
            documents = MemoryCache(maxCost: 1 << 20, clock: clock)
            timelines.store(timeline, for: "t", cost: 1, ttl: .seconds(60))
            documents.store(cues, for: "c", cost: 1, ttl: .seconds(30))
        }

        var inputs: SubtitleAnswers.Inputs { SubtitleAnswers.Inputs(timelineKey: "t", timeline: timeline.playlists, cues: (key: "c", object: cues)) }

        func body(_ answers: SubtitleAnswers, _ url: SubtitleURL = SubtitleAnswersTests.url) -> String? {
            answers.answer(for: url, timelines: timelines, documents: documents).map {
                guard case .bytes(let bytes) = $0.response.body else { return "?" }
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    @Test func anAnswerIsGivenAgainWhileItsTimelineAndCuesAreTheOnesCached() {
        let caches = Caches()
        let answers = SubtitleAnswers()
        #expect(caches.body(answers) == nil)
        answers.keep(Self.answer("a"), for: Self.url, inputs: caches.inputs, timelines: caches.timelines, documents: caches.documents)
        #expect(caches.body(answers) == "a")
        #expect(caches.body(answers, SubtitleURL(setName: "s", trackID: "en", masterTarget: "/files/master.m3u8", resource: .segment(1))) == nil)
        #expect(caches.body(answers, SubtitleURL(setName: "s", trackID: "fr", masterTarget: "/files/master.m3u8", resource: .segment(0))) == nil)
    }

    @Test func aReplacedTimelineIsAMiss() {
        let caches = Caches()
        let answers = SubtitleAnswers()
        answers.keep(Self.answer("a"), for: Self.url, inputs: caches.inputs, timelines: caches.timelines, documents: caches.documents)
        // The same fields, read again: another timeline, so another answer may be due.
        caches.timelines.store(VideoTimeline(durations: [6, 6], playlistType: "VOD"), for: "t", cost: 1, ttl: .seconds(60))
        #expect(caches.body(answers) == nil)
    }

    @Test func replacedOrExpiredCuesAreAMiss() {
        let caches = Caches()
        let answers = SubtitleAnswers()
        answers.keep(Self.answer("a"), for: Self.url, inputs: caches.inputs, timelines: caches.timelines, documents: caches.documents)
        caches.documents.store(Self.cues(), for: "c", cost: 1, ttl: .seconds(30))
        #expect(caches.body(answers) == nil)

        let fresh = Caches()
        answers.keep(Self.answer("b"), for: Self.url, inputs: fresh.inputs, timelines: fresh.timelines, documents: fresh.documents)
        #expect(fresh.body(answers) == "b")
        fresh.clock.advance(by: .seconds(31))
        #expect(fresh.body(answers) == nil, "the cues' TTL ran out")
    }

    @Test func anExpiredTimelineIsAMissEvenForAnAnswerThatReadNoCues() {
        let caches = Caches()
        let answers = SubtitleAnswers()
        var inputs = caches.inputs
        inputs.cues = nil
        answers.keep(Self.answer("p"), for: Self.url, inputs: inputs, timelines: caches.timelines, documents: caches.documents)
        // Cues replaced: this answer did not read them, so it stands.
        caches.documents.store(Self.cues(), for: "c", cost: 1, ttl: .seconds(30))
        #expect(caches.body(answers) == "p")
        caches.clock.advance(by: .seconds(61))
        #expect(caches.body(answers) == nil)
    }

    @Test func cuesNoLongerAliveAreAMissAndAreNotKeptAliveByTheTable() {
        let clock = CacheClock.adjustable()
        let timelines = MemoryCache<VideoTimeline>(maxCost: 1 << 20, clock: clock)
        let documents = MemoryCache<SubtitleTrackCues>(maxCost: 1 << 20, clock: clock)
        let timeline = VideoTimeline(durations: [6], playlistType: "VOD")
        timelines.store(timeline, for: "t", cost: 1, ttl: .seconds(60))
        let answers = SubtitleAnswers()
        weak var released: SubtitleTrackCues?
        do {
            let cues = Self.cues()
            released = cues
            documents.store(cues, for: "c", cost: 1, ttl: .seconds(1))
            answers.keep(Self.answer("a"), for: Self.url, inputs: SubtitleAnswers.Inputs(timelineKey: "t", timeline: timeline.playlists, cues: (key: "c", object: cues)),
                         timelines: timelines, documents: documents)
        }
        #expect(answers.answer(for: Self.url, timelines: timelines, documents: documents) != nil)
        // Expired and dropped by the cache: nothing else holds the cues, the table holds a handle only.
        clock.advance(by: .seconds(2))
        #expect(answers.answer(for: Self.url, timelines: timelines, documents: documents) == nil)
        #expect(released == nil)
    }

    /// The caches count a hit for a kept answer given, and none for a check that fails (the full path
    /// that follows counts its own).
    @Test func onlyAGivenAnswerCountsCacheHits() {
        let caches = Caches()
        let answers = SubtitleAnswers()
        answers.keep(Self.answer("a"), for: Self.url, inputs: caches.inputs, timelines: caches.timelines, documents: caches.documents)
        let before = (caches.timelines.counts.hits, caches.documents.counts.hits)
        #expect(caches.body(answers) == "a")
        #expect(caches.timelines.counts.hits == before.0 + 1 && caches.documents.counts.hits == before.1 + 1)
        caches.documents.store(Self.cues(), for: "c", cost: 1, ttl: .seconds(30))
        #expect(caches.body(answers) == nil)
        #expect(caches.timelines.counts.hits == before.0 + 1 && caches.documents.counts.hits == before.1 + 1)
    }

    @Test func anAnswerIsNotKeptUnlessTheCachesHoldWhatItWasMadeFrom() {
        let caches = Caches()
        let answers = SubtitleAnswers()
        // Cues read from elsewhere (not the cached object under that key), a key that holds nothing,
        // a timeline other than the cached one: none of these is tied to a cache entry.
        var inputs = caches.inputs
        inputs.cues = (key: "c", object: Self.cues())
        answers.keep(Self.answer("a"), for: Self.url, inputs: inputs, timelines: caches.timelines, documents: caches.documents)
        inputs.cues = (key: "missing", object: caches.cues)
        answers.keep(Self.answer("a"), for: Self.url, inputs: inputs, timelines: caches.timelines, documents: caches.documents)
        inputs = caches.inputs
        inputs.timeline = VideoTimeline(durations: [6, 6], playlistType: "VOD").playlists
        answers.keep(Self.answer("a"), for: Self.url, inputs: inputs, timelines: caches.timelines, documents: caches.documents)
        #expect(answers.counts.answers == 0)
        #expect(caches.body(answers) == nil)

        // An answer kept earlier for the URL is dropped when the one made again cannot be kept.
        answers.keep(Self.answer("a"), for: Self.url, inputs: caches.inputs, timelines: caches.timelines, documents: caches.documents)
        #expect(answers.counts.answers == 1)
        answers.keep(Self.answer("b"), for: Self.url, inputs: inputs, timelines: caches.timelines, documents: caches.documents)
        #expect(answers.counts.answers == 0 && answers.counts.bytes == 0)
    }

    /// A slot that an eviction freed and another key's store filled is not the entry the answer was
    /// made from, even though the slot number is the same.
    @Test func aSlotRefilledForAnotherKeyIsAMiss() {
        let clock = CacheClock.adjustable()
        let timelines = MemoryCache<VideoTimeline>(maxCost: 1, clock: clock)
        let documents = MemoryCache<SubtitleTrackCues>(maxCost: 1 << 20, clock: clock)
        let timeline = VideoTimeline(durations: [6], playlistType: "VOD")
        timelines.store(timeline, for: "t", cost: 1, ttl: .seconds(60))
        let answers = SubtitleAnswers()
        answers.keep(Self.answer("a"), for: Self.url, inputs: SubtitleAnswers.Inputs(timelineKey: "t", timeline: timeline.playlists, cues: nil),
                     timelines: timelines, documents: documents)
        #expect(answers.answer(for: Self.url, timelines: timelines, documents: documents) != nil)
        // A cost of 1 leaves room for one entry: "u" evicts "t" and takes its freed slot.
        let other = VideoTimeline(durations: [6], playlistType: "VOD")
        timelines.store(other, for: "u", cost: 1, ttl: .seconds(60))
        #expect(timelines.keysByRecency == ["u"])
        #expect(answers.answer(for: Self.url, timelines: timelines, documents: documents) == nil)
        // Storing "t" again is a new entry too: the answer is made again, not given from the old one.
        timelines.store(timeline, for: "t", cost: 1, ttl: .seconds(60))
        #expect(answers.answer(for: Self.url, timelines: timelines, documents: documents) == nil)
    }

    @Test func theTableStaysWithinItsCountAndBytes() {
        let caches = Caches()
        let answers = SubtitleAnswers()
        for index in 0..<(SubtitleAnswers.capacity + 10) {
            let url = SubtitleURL(setName: "s", trackID: "en", masterTarget: "/m\(index).m3u8", resource: .segment(0))
            answers.keep(Self.answer("x"), for: url, inputs: caches.inputs, timelines: caches.timelines, documents: caches.documents)
            #expect(answers.counts.answers <= SubtitleAnswers.capacity)
        }
        let big = String(repeating: "x", count: SubtitleAnswers.maxBodyBytes)
        for index in 0..<(SubtitleAnswers.maxKeptBytes / SubtitleAnswers.maxBodyBytes + 5) {
            let url = SubtitleURL(setName: "s", trackID: "en", masterTarget: "/big\(index).m3u8", resource: .segment(0))
            answers.keep(Self.answer(big), for: url, inputs: caches.inputs, timelines: caches.timelines, documents: caches.documents)
            #expect(answers.counts.bytes <= SubtitleAnswers.maxKeptBytes)
        }
        // Too large to keep at all.
        answers.keep(Self.answer(big + "x"), for: Self.url, inputs: caches.inputs, timelines: caches.timelines, documents: caches.documents)
        #expect(caches.body(answers) == nil)
    }
}

/// A subtitle URL hashes the digest it took when read: equal URLs, read from a path or made from their
/// parts, are equal and hash alike, and a URL differing in any part is another key.
@Suite struct SubtitleURLIdentityTests {
    @Test func equalURLsHashAlikeAndEveryPartCounts() {
        let url = SubtitleURL(setName: "s", trackID: "en", masterTarget: "/files/master.m3u8?x=1", resource: .segment(3))
        let segments = url.path.split(separator: "/", omittingEmptySubsequences: true)
        guard let read = SubtitleURL(segmentsAfterPrefix: segments.dropFirst()) else {
            Issue.record("its own path does not read back: \(url.path)")
            return
        }
        #expect(read == url)
        #expect(read.hashValue == url.hashValue)
        let others = [
            SubtitleURL(setName: "t", trackID: "en", masterTarget: "/files/master.m3u8?x=1", resource: .segment(3)),
            SubtitleURL(setName: "s", trackID: "fr", masterTarget: "/files/master.m3u8?x=1", resource: .segment(3)),
            SubtitleURL(setName: "s", trackID: "en", masterTarget: "/files/master.m3u8?x=2", resource: .segment(3)),
            SubtitleURL(setName: "s", trackID: "en", masterTarget: "/files/master.m3u8?x=1", resource: .segment(4)),
            SubtitleURL(setName: "s", trackID: "en", masterTarget: "/files/master.m3u8?x=1", resource: .playlist),
        ]
        for other in others { #expect(other != url, "\(other)") }
        #expect(Set(others + [url, read]).count == others.count + 1)
    }
}
