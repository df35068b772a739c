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

    @Test func aSegmentShorterThanTheTargetDurationEndsWithItsEXTINFAndNoneLastsLongerThanT() {
        #expect(LiveSegmentTiming.nominal(sequence: 10, targetDuration: 6, duration: 4.5)! == (60_000, 64_500))
        // Longer than T (RFC 8216 §4.3.3.1 allows EXTINF to round to T): the next window starts at (N+1)×T.
        #expect(LiveSegmentTiming.nominal(sequence: 10, targetDuration: 6, duration: 6.4)! == (60_000, 66_000))
        for unknown in [0, -1, Double.nan, .infinity] {
            #expect(LiveSegmentTiming.nominal(sequence: 10, targetDuration: 6, duration: unknown)! == (60_000, 66_000), "\(unknown)")
        }
        #expect(LiveSegmentTiming.nominal(sequence: 1, targetDuration: 4, duration: 0.0001)! == (4000, 4001))
    }

    @Test func aCueTimeBeforeZeroIsWrittenAsLocalZeroWithMPEGTSShiftedByItsTicks() {
        #expect(LiveSegmentTiming.map(pts: 126_000, local: 8000) == TimestampMap(mpegts: 126_000, local: 8000))
        #expect(LiveSegmentTiming.map(pts: 126_000, local: -2000) == TimestampMap(mpegts: 306_000, local: 0))
        // Shifted past the wrap: modulo 2^33.
        let wrap: Int64 = 1 << 33
        #expect(LiveSegmentTiming.map(pts: wrap - 90_000, local: -2000) == TimestampMap(mpegts: 90_000, local: 0))
        #expect(LiveSegmentTiming.map(pts: 0, local: -47_720_858) == TimestampMap(mpegts: 4_294_877_220, local: 0))
        // Whatever is passed, the result is a 33-bit MPEGTS and never traps.
        let extreme = LiveSegmentTiming.map(pts: Int64.max, local: Int64.min)
        #expect((0..<wrap).contains(extreme.mpegts) && extreme.local == 0)
        #expect(LiveSegmentTiming.map(pts: -1, local: 0).mpegts == wrap - 1)
    }

    @Test func onAnEpochAPTSMoreThan2To32TicksAwayReadsFromTheNearerSideOfTheWrap() {
        // Epoch mode covers 13.25 h either side of the epoch (docs/requests.md): 2^32 + 1 s after it is
        // 2^32 - 1 s before it.
        let far = LiveSegmentTiming.onEpoch(TimestampMap(mpegts: 0, local: 0), pts: (1 << 32) + 90_000, duration: 4)
        #expect(far == (-47_720_858, -47_716_858))
        let near = LiveSegmentTiming.onEpoch(TimestampMap(mpegts: 0, local: 0), pts: (1 << 32) - 90_000, duration: 4)
        #expect(near == (47_720_858, 47_724_858))
    }
}
