import HLS
import Testing

/// Where live segment N sits on a track's cue timeline, with and without an epoch.
@Suite struct LiveSegmentTimingTests {
    @Test func aSegmentStartsAtItsNumberTimesTheTargetDurationAndLastsOneTargetDuration() {
        #expect(LiveSegmentTiming.nominal(sequence: 0, targetDuration: 4)! == (0, 4000))
        #expect(LiveSegmentTiming.nominal(sequence: 10, targetDuration: 6)! == (60_000, 66_000))
        // A target duration of 0 (unreadable) counts as 1 s rather than stacking every segment at 0.
        #expect(LiveSegmentTiming.nominal(sequence: 3, targetDuration: 0)! == (3000, 4000))
    }

    @Test func aNumberWhoseStartWouldPassInt64MillisecondsHasNoSpan() {
        #expect(LiveSegmentTiming.nominal(sequence: UInt64.max, targetDuration: 4) == nil)
        #expect(LiveSegmentTiming.nominal(sequence: UInt64(Int64.max / 4000), targetDuration: 4) == nil)
    }

    @Test func onAnEpochASegmentStartsAtItsPTSDistanceFromTheEpoch() {
        let epoch = TimestampMap(mpegts: 900_000, local: 1000)
        #expect(LiveSegmentTiming.onEpoch(epoch, pts: 1_260_000, duration: 4) == (5000, 9000))
        #expect(LiveSegmentTiming.onEpoch(epoch, pts: 900_000, duration: 2.5) == (1000, 3500))
    }

    @Test func aPTSJustPastThe33BitWrapIsJustAfterTheEpochNotADayBefore() {
        let wrap: Int64 = 1 << 33
        #expect(LiveSegmentTiming.nearestTickDelta(from: wrap - 90_000, to: 90_000) == 180_000)
        #expect(LiveSegmentTiming.nearestTickDelta(from: 90_000, to: wrap - 90_000) == -180_000)
        #expect(LiveSegmentTiming.onEpoch(TimestampMap(mpegts: wrap - 90_000, local: 0), pts: 270_000, duration: 2) == (4000, 6000))
    }

    @Test func valuesOutside33BitsAreReadModulo2To33AndNeverTrap() {
        #expect(LiveSegmentTiming.nearestTickDelta(from: Int64.min, to: Int64.max) == -1)
        #expect(LiveSegmentTiming.nearestTickDelta(from: -1, to: 0) == 1)
        let far = LiveSegmentTiming.onEpoch(TimestampMap(mpegts: 0, local: Int64.max - 10), pts: 90_000, duration: .infinity)
        #expect(far.start == Int64.max)
    }
}
