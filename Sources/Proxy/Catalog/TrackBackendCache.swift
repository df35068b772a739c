import HTTPWire
import Synchronization

/// The backend answers by URL and header set, with one fetch for concurrent requests (the shape of
/// SubtitleTrackLoads: a request that finds a load in flight waits for that load), and the address
/// verdicts for the hosts their sources name. Entries expire by TTL; expired ones are swept once the
/// table has doubled, so it stays proportional to the assets played within a TTL.
final class TrackBackendCache: Sendable {
    /// Whether a source host passed the address check.
    enum HostVerdict: Sendable, Equatable {
        case allowed
        case refused(String)
    }

    fileprivate enum Slot {
        case loading(Task<TrackBackendDocument, Never>)
        case ready(TrackBackendDocument, expires: MonotonicTime)
    }

    fileprivate struct State {
        var documents: [String: Slot] = [:]
        var verdicts: [String: (verdict: HostVerdict, expires: MonotonicTime)] = [:]
        var sweepAt = 256
    }

    private let state = Mutex(State())
    /// Requests that found a fetch in flight and waited for it, for tests.
    private let joinedCount = Atomic<Int>(0)
    var fetchesJoined: Int { joinedCount.load(ordering: .relaxed) }

    /// The live document for `key`, the fetch in flight for it, or a new fetch by `load`, kept for
    /// `successTTL` (tracks) or `failureTTL` (a failure); an uncacheable outcome is handed to its
    /// waiters and not kept. The fetch is unstructured, so one cancelled request does not cancel it for
    /// the others.
    func document(
        for key: String, successTTL: Duration, failureTTL: Duration, load: @escaping @Sendable () async -> TrackBackendDocument
    ) async -> TrackBackendDocument {
        let found: Found = state.withLock { state in
            let now = MonotonicTime.now()
            switch state.documents[key] {
            case .ready(let document, let expires)? where expires > now:
                return .ready(document)
            case .loading(let running)?:
                joinedCount.add(1, ordering: .relaxed)
                return .waiting(running)
            default:
                break
            }
            let running = Task { [weak self] in
                let document = await load()
                self?.finish(key, document, ttl: Self.isFailure(document) ? failureTTL : successTTL)
                return document
            }
            state.documents[key] = .loading(running)
            state.sweepIfDue(now: now)
            return .waiting(running)
        }
        switch found {
        case .ready(let document): return document
        case .waiting(let running): return await running.value
        }
    }

    private enum Found {
        case ready(TrackBackendDocument)
        case waiting(Task<TrackBackendDocument, Never>)
    }

    private static func isFailure(_ document: TrackBackendDocument) -> Bool {
        if case .failed = document { return true }
        return false
    }

    private func finish(_ key: String, _ document: TrackBackendDocument, ttl: Duration) {
        state.withLock { state in
            state.documents[key] = document.isCacheable ? .ready(document, expires: .now() + ttl) : nil
        }
    }

    /// The live verdict for a source host, or nil when none is known.
    func hostVerdict(for key: String) -> HostVerdict? {
        state.withLock { state in
            guard let entry = state.verdicts[key], entry.expires > .now() else { return nil }
            return entry.verdict
        }
    }

    /// Keeps a source host's verdict for `ttl`.
    func storeHostVerdict(_ verdict: HostVerdict, for key: String, ttl: Duration) {
        state.withLock { state in
            let now = MonotonicTime.now()
            state.verdicts[key] = (verdict, now + ttl)
            state.sweepIfDue(now: now)
        }
    }
}

extension TrackBackendCache.State {
    /// Drops expired entries once the tables have doubled since the last sweep: amortized O(1) per store.
    fileprivate mutating func sweepIfDue(now: MonotonicTime) {
        guard documents.count + verdicts.count >= sweepAt else { return }
        documents = documents.filter { _, slot in
            if case .ready(_, let expires) = slot { return expires > now }
            return true
        }
        verdicts = verdicts.filter { $0.value.expires > now }
        sweepAt = max(256, (documents.count + verdicts.count) * 2)
    }
}
