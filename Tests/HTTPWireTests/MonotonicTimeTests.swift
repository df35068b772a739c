import HTTPWire
import Testing

/// The one monotonic clock's arithmetic: deadlines are built by adding configured durations, so a
/// huge one must saturate rather than trap.
@Suite struct MonotonicTimeTests {
    @Test func addingAndSubtractingDurationsIsExactToTheNanosecond() {
        let start = MonotonicTime(nanoseconds: 5_000_000_000)
        let later = start + .milliseconds(1_500)
        #expect(later.nanoseconds == 6_500_000_000)
        #expect(later - start == .milliseconds(1_500))
        #expect(start.duration(to: later) == .milliseconds(1_500))
        #expect(later - .milliseconds(1_500) == start)
        #expect(start < later)
        #expect(later.milliseconds == 6_500)
    }

    @Test func aDeadlineFarBeyondTheClockSaturatesInsteadOfTrapping() {
        let start = MonotonicTime(nanoseconds: 1_000)
        #expect((start + .seconds(Int64.max)).nanoseconds == Int.max)
        #expect((MonotonicTime(nanoseconds: -1) + .seconds(Int64.min)).nanoseconds == Int.min)
        #expect((MonotonicTime(nanoseconds: -1) - .seconds(Int64.max)).nanoseconds == Int.min)
        #expect(start + .seconds(Int64.min) < MonotonicTime(nanoseconds: 0))
    }

    @Test func readingsNeverGoBackwards() {
        let first = MonotonicTime.now()
        let second = MonotonicTime.now()
        #expect(first <= second)
        #expect(first.millisecondsElapsed >= 0)
    }
}
