import HLS
import Synchronization

/// The `LiveWindowClock` of each live master, shared by every request: a reload advances it, a subtitle
/// segment reads its window from it. Bounded: past `capacity` masters the least recently advanced goes
/// (its next reload starts a new clock at 0, and the log says so).
final class LiveWindowClocks: Sendable {
    /// Masters kept at most.
    static let capacity = 1024

    private struct State {
        var clocks: [String: LiveWindowClock] = [:]
        /// Keys from least to most recently advanced.
        var order: [String] = []
    }

    private let state = Mutex(State())

    /// The clock of `key` after the window starting at `sequence`: a new one when there is none; the
    /// outcome is nil for a new clock. Nil altogether when the window's numbers pass 2^64-1.
    func advance(_ key: String, sequence: UInt64, discontinuitySequence: UInt64, segments: [MediaSegment], targetDuration: Int)
        -> (clock: LiveWindowClock, outcome: LiveWindowClock.Advance?)?
    {
        state.withLock { state in
            var outcome: LiveWindowClock.Advance?
            let clock: LiveWindowClock
            if var known = state.clocks[key] {
                guard let advanced = known.advance(
                    sequence: sequence, discontinuitySequence: discontinuitySequence, segments: segments, targetDuration: targetDuration) else { return nil }
                outcome = advanced
                clock = known
                state.order.removeAll { $0 == key }
            } else {
                guard let started = LiveWindowClock(sequence: sequence, discontinuitySequence: discontinuitySequence, segments: segments) else { return nil }
                clock = started
                if state.order.count >= Self.capacity, let oldest = state.order.first {
                    state.order.removeFirst()
                    state.clocks[oldest] = nil
                }
            }
            state.clocks[key] = clock
            state.order.append(key)
            return (clock, outcome)
        }
    }
}
