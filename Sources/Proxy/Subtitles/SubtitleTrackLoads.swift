import Synchronization

/// Loads of subtitle tracks by cache key, so a source is fetched and parsed once however many requests
/// want it: requests that arrive while it loads wait for that load, and once it is done they get the
/// same document for as long as any request still holds it (or the cache does), even when it is too
/// large for the cache.
final class SubtitleTrackLoads: Sendable {
    fileprivate struct WeakCues {
        weak var cues: SubtitleTrackCues?
    }

    fileprivate enum Slot {
        case loading(Task<SubtitleTrackCues, any Error>)
        case loaded(WeakCues)
    }

    fileprivate struct State {
        var slots: [String: Slot] = [:]
        /// Slots held after the last sweep for released documents; the next sweep waits for twice as many.
        var sweepAt = 64
    }

    private let state = Mutex(State())

    /// Loads that have run, for tests: how many times `load` was called.
    private let loadCount = Atomic<Int>(0)
    var loadsStarted: Int { loadCount.load(ordering: .relaxed) }

    /// Loads not finished yet, for tests.
    var loadsInFlight: Int {
        state.withLock { state in
            state.slots.values.reduce(0) { count, slot in
                if case .loading = slot { return count + 1 }
                return count
            }
        }
    }

    /// The cues for `key`: the document some request still holds, the load in flight, or a new load.
    /// A load that throws (only load shedding does) leaves nothing behind: its waiters get the error and
    /// the next request starts afresh.
    func cues(for key: String, load: @escaping @Sendable () async throws -> SubtitleTrackCues) async throws -> SubtitleTrackCues {
        let found: Either = state.withLock { state in
            switch state.slots[key] {
            case .loaded(let held):
                if let cues = held.cues { return .ready(cues) }
            case .loading(let task):
                return .waiting(task)
            case nil:
                break
            }
            loadCount.add(1, ordering: .relaxed)
            let task = Task { [weak self] in
                do {
                    let cues = try await load()
                    self?.finish(key, cues)
                    return cues
                } catch {
                    self?.abandon(key)
                    throw error
                }
            }
            state.slots[key] = .loading(task)
            state.sweepIfDue()
            return .waiting(task)
        }
        switch found {
        case .ready(let cues): return cues
        case .waiting(let task): return try await task.value
        }
    }

    private enum Either {
        case ready(SubtitleTrackCues)
        case waiting(Task<SubtitleTrackCues, any Error>)
    }

    private func finish(_ key: String, _ cues: SubtitleTrackCues) {
        state.withLock { $0.slots[key] = .loaded(WeakCues(cues: cues)) }
    }

    private func abandon(_ key: String) {
        state.withLock { _ = $0.slots.removeValue(forKey: key) }
    }
}

extension SubtitleTrackLoads.State {
    /// Drops the slots of documents no request holds any more, once the table has doubled since the last
    /// sweep: amortized O(1) per load, and the table stays proportional to the documents in use.
    fileprivate mutating func sweepIfDue() {
        guard slots.count >= sweepAt else { return }
        slots = slots.filter { _, slot in
            if case .loaded(let held) = slot { return held.cues != nil }
            return true
        }
        sweepAt = max(64, slots.count * 2)
    }
}
