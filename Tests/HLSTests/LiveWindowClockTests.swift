import HLS
import Testing

/// The live clock: a sliding window's segments keep their starts, by media sequence number, across
/// reloads (RFC 8216 §6.2.1, §6.3.2).
@Suite struct LiveWindowClockTests {
    static func segments(_ durations: [Double], discontinuityAt: Set<Int> = [], first: Int = 0) -> [MediaSegment] {
        durations.enumerated().map { MediaSegment(duration: $1, uri: "s\(first + $0).ts", discontinuity: discontinuityAt.contains($0)) }
    }

    @Test func theFirstWindowStartsAtZeroAndEachSegmentWhereThePreviousEnds() throws {
        let clock = try #require(LiveWindowClock(sequence: 10, segments: Self.segments([2, 2.5, 2])))
        #expect(clock.span(of: 10).map { [$0.start, $0.end] } == [0, 2000])
        #expect(clock.span(of: 11).map { [$0.start, $0.end] } == [2000, 4500])
        #expect(clock.span(of: 12).map { [$0.start, $0.end] } == [4500, 6500])
        #expect(clock.span(of: 9) == nil)
        #expect(clock.span(of: 13) == nil)
    }

    @Test func aWindowThatSlidesOverThreeReloadsKeepsEverySegmentsStart() throws {
        var clock = try #require(LiveWindowClock(sequence: 0, segments: Self.segments([2, 2, 2])))
        #expect(clock.advance(sequence: 1, segments: Self.segments([2, 2, 3]), targetDuration: 3) == .followed)
        #expect(clock.advance(sequence: 2, segments: Self.segments([2, 3, 2]), targetDuration: 3) == .followed)
        #expect(clock.advance(sequence: 3, segments: Self.segments([3, 2, 2]), targetDuration: 3) == .followed)
        // Segment 3 started at 6 s when it first appeared and still does; 5 starts after 3 and 4.
        #expect(clock.span(of: 0).map { [$0.start, $0.end] } == [0, 2000])
        #expect(clock.span(of: 3).map { [$0.start, $0.end] } == [6000, 9000])
        #expect(clock.span(of: 4).map { [$0.start, $0.end] } == [9000, 11000])
        #expect(clock.span(of: 5).map { [$0.start, $0.end] } == [11000, 13000])
    }

    @Test func aWindowDirectlyAfterTheRememberedOnesFollowsExactly() throws {
        var clock = try #require(LiveWindowClock(sequence: 0, segments: Self.segments([2, 2])))
        #expect(clock.advance(sequence: 2, segments: Self.segments([2]), targetDuration: 2) == .followed)
        #expect(clock.span(of: 2).map { [$0.start, $0.end] } == [4000, 6000])
    }

    @Test func aWindowPastEveryRememberedSegmentIsEstimatedAtTheTargetDuration() throws {
        var clock = try #require(LiveWindowClock(sequence: 0, segments: Self.segments([2, 2])))
        #expect(clock.advance(sequence: 5, segments: Self.segments([2]), targetDuration: 3) == .skipped(missing: 3))
        #expect(clock.span(of: 5).map { [$0.start, $0.end] } == [13000, 15000])
        #expect(clock.span(of: 1) == nil)
    }

    @Test func aMediaSequenceThatGoesBackRestartsTheClockAtZero() throws {
        var clock = try #require(LiveWindowClock(sequence: 100, segments: Self.segments([2, 2])))
        #expect(clock.advance(sequence: 3, segments: Self.segments([2]), targetDuration: 2) == .restarted)
        #expect(clock.span(of: 3).map { [$0.start, $0.end] } == [0, 2000])
        #expect(clock.span(of: 100) == nil)
    }

    @Test func numbersThatWouldPassTwoToTheSixtyFourMinusOneAreRefused() throws {
        #expect(LiveWindowClock(sequence: UInt64.max, segments: Self.segments([2, 2])) == nil)
        var clock = try #require(LiveWindowClock(sequence: UInt64.max - 2, segments: Self.segments([2, 2])))
        #expect(clock.advance(sequence: UInt64.max, segments: Self.segments([2, 2]), targetDuration: 2) == nil)
        #expect(clock.span(of: UInt64.max - 1).map { [$0.start, $0.end] } == [2000, 4000])
    }

    @Test func onlyTheLastCapacitySegmentsAreRemembered() throws {
        var clock = try #require(LiveWindowClock(sequence: 0, segments: Self.segments([1])))
        for sequence in 1...UInt64(LiveWindowClock.capacity + 10) {
            _ = clock.advance(sequence: sequence, segments: Self.segments([1]), targetDuration: 1)
        }
        #expect(clock.starts.count == LiveWindowClock.capacity)
        #expect(clock.span(of: 5) == nil)
        let last = UInt64(LiveWindowClock.capacity + 10)
        #expect(clock.span(of: last).map { [$0.start, $0.end] } == [Int64(last) * 1000, Int64(last + 1) * 1000])
    }

    @Test func badDurationsCountAsZeroWithoutTrapping() throws {
        let clock = try #require(LiveWindowClock(sequence: 0, segments: Self.segments([.nan, -4, .infinity, 2])))
        #expect(clock.span(of: 3)?.start == clock.span(of: 2)?.end)
        #expect(clock.span(of: 0).map { [$0.start, $0.end] } == [0, 0])
    }

    @Test func eachPartKeepsTheFirstOfItsSegmentsTheClockSawAsItsAnchorAsTheWindowSlides() throws {
        // Window 0: s0 s1 | s2 (a discontinuity before s2). Window 1: s1 | s2 s3. Window 2: s2 s3 | s4,
        // the first discontinuity gone (sequence 1), a new one before s4.
        var clock = try #require(LiveWindowClock(sequence: 0, segments: Self.segments([2, 2, 2], discontinuityAt: [2])))
        _ = clock.advance(sequence: 1, segments: Self.segments([2, 2, 2], discontinuityAt: [1], first: 1), targetDuration: 2)
        _ = clock.advance(
            sequence: 2, discontinuitySequence: 1, segments: Self.segments([2, 2, 2], discontinuityAt: [2], first: 2), targetDuration: 2)
        #expect(clock.anchor(of: 0)?.uri == "s0.ts")
        #expect(clock.anchor(of: 1)?.uri == "s0.ts")
        #expect(clock.anchor(of: 3).map { [$0.uri, String($0.start), String($0.sequence)] } == ["s2.ts", "4000", "2"])
        #expect(clock.anchor(of: 4).map { [$0.uri, String($0.start)] } == ["s4.ts", "8000"])
        #expect(clock.anchor(of: 5) == nil)
    }

    @Test func aDiscontinuitySequenceAtTheTopIsPinnedRatherThanWrapped() throws {
        let clock = try #require(LiveWindowClock(
            sequence: 0, discontinuitySequence: UInt64.max, segments: Self.segments([2, 2], discontinuityAt: [1])))
        #expect(clock.anchor(of: 1)?.uri == "s0.ts")
    }
}
