import HTTPWire
import Synchronization

/// The backend answers by URL and header set, with one fetch for concurrent requests (the shape of
/// SubtitleTrackLoads: a request that finds a load in flight waits for that load), and the address
/// verdicts for the hosts their sources name. Both tables keep at most `limits.max_tracks_cache_entries`
/// entries, forgetting the least recently used, so a catalog of any size costs bounded memory.
/// An answer with tracks outlives its TTL by `cache.tracks_stale_seconds`: while a refresh fails
/// (timeout, refused, 5xx, bad JSON) it is served instead (RFC 5861 §4, stale-if-error), so subtitle
/// URLs keep working mid-film through a backend outage. A 404 or 410 for the asset replaces it.
final class TrackBackendCache: Sendable {
    /// Whether a source host passed the address check.
    enum HostVerdict: Sendable, Equatable {
        case allowed
        case refused(String)
    }

    /// What a lookup hands out: the document to use and, when a refresh failed and the last good
    /// answer stands in for it, that failure.
    struct Answer: Sendable {
        var document: TrackBackendDocument
        var staleFor: TrackBackendDocument?
    }

    fileprivate struct Entry {
        var document: TrackBackendDocument
        var expires: MonotonicTime
        /// Until when a failed refresh may fall back on this document; nil for a failure.
        var staleUntil: MonotonicTime?
    }

    fileprivate struct State {
        var documents: RecentlyUsedTable<String, Entry>
        var loading: [String: Task<Answer, Never>] = [:]
        var verdicts: RecentlyUsedTable<String, (verdict: HostVerdict, expires: MonotonicTime)>
        /// The decoded size of the answers kept (`TrackBackendCache.cost(of:)`), held under `maxBytes`.
        var documentBytes = 0
        let maxBytes: Int

        /// Keeps `entry` as the most recent answer, first forgetting the least recently used ones while
        /// the table is full or their bytes and this one's pass the budget; the newest is always kept.
        mutating func storeDocument(_ entry: Entry, for key: String) {
            removeDocument(key)
            let cost = TrackBackendCache.cost(of: entry.document)
            while let oldest = documents.oldestKey, documents.count >= documents.capacity || documentBytes + cost > maxBytes {
                removeDocument(oldest)
            }
            documents.set(entry, for: key)
            documentBytes += cost
        }

        mutating func removeDocument(_ key: String) {
            guard let kept = documents.peek(key) else { return }
            documentBytes -= TrackBackendCache.cost(of: kept.document)
            documents.remove(key)
        }
    }

    /// What an answer costs the budget: the bytes of its tracks' strings (or its failure's text) plus a
    /// fixed share for the entry itself, so a few huge answers cannot hold what thousands of small ones would.
    static func cost(of document: TrackBackendDocument) -> Int {
        switch document {
        case .tracks(let tracks, _, let reasons):
            let trackBytes = tracks.reduce(0) { total, track in
                total + track.id.utf8.count + track.source.utf8.count + track.track.name.utf8.count + track.track.language.utf8.count + 128
            }
            return reasons.reduce(trackBytes + 256) { $0 + $1.utf8.count }
        case .failed(let label, let detail, _):
            return label.utf8.count + detail.utf8.count + 256
        }
    }

    private let state: Mutex<State>
    /// What TTLs and the stale bound are measured on: the monotonic clock, or a test's adjustable one.
    private let clock: CacheClock
    /// Requests that found a fetch in flight and waited for it, for tests.
    private let joinedCount = Atomic<Int>(0)
    var fetchesJoined: Int { joinedCount.load(ordering: .relaxed) }

    /// Makes an empty cache of at most `maxEntries` answers costing at most `maxBytes` together (the
    /// newest is kept whatever its size), as many host verdicts, timed by `clock`.
    init(maxEntries: Int = ProxyConfig.Limits().maxTracksCacheEntries, maxBytes: Int = Int.max, clock: CacheClock = .system) {
        self.clock = clock
        state = Mutex(State(
            documents: RecentlyUsedTable(capacity: maxEntries), verdicts: RecentlyUsedTable(capacity: maxEntries), maxBytes: maxBytes))
    }

    /// How many answers are kept, for tests and bounds.
    var documentCount: Int { state.withLock { $0.documents.count } }
    /// What the answers kept cost the byte budget, for tests and bounds.
    var documentBytes: Int { state.withLock { $0.documentBytes } }

    /// Whether `key` has an answer kept (live or past its TTL) or a fetch in flight: asking for it
    /// then says nothing new about the asset.
    func knows(_ key: String) -> Bool {
        state.withLock { $0.loading[key] != nil || $0.documents.peek(key) != nil }
    }

    /// The live document for `key`, the fetch in flight for it, or a new fetch by `load`, kept for
    /// `successTTL` (tracks) or `failureTTL` (a failure); an uncacheable outcome is handed to its
    /// waiters and not kept. A failed fetch whose key has tracks fetched less than `successTTL +
    /// staleTTL` ago hands those out instead. `report` runs once per fetch with its answer. The fetch
    /// is unstructured, so one cancelled request does not cancel it for the others.
    func document(
        for key: String, successTTL: Duration, failureTTL: Duration, staleTTL: Duration,
        load: @escaping @Sendable () async -> TrackBackendDocument, report: @escaping @Sendable (Answer) -> Void = { _ in }
    ) async -> Answer {
        let found: Found = state.withLock { state in
            if let running = state.loading[key] {
                joinedCount.add(1, ordering: .relaxed)
                return .waiting(running)
            }
            if let entry = state.documents.value(for: key), entry.expires > clock.now() {
                return .ready(Answer(document: entry.document, staleFor: nil))
            }
            let running = Task { [weak self] in
                let document = await load()
                let answer = self?.finish(key, document, successTTL: successTTL, failureTTL: failureTTL, staleTTL: staleTTL)
                    ?? Answer(document: document, staleFor: nil)
                report(answer)
                return answer
            }
            state.loading[key] = running
            return .waiting(running)
        }
        switch found {
        case .ready(let answer): return answer
        case .waiting(let running): return await running.value
        }
    }

    private enum Found {
        case ready(Answer)
        case waiting(Task<Answer, Never>)
    }

    private func finish(
        _ key: String, _ document: TrackBackendDocument, successTTL: Duration, failureTTL: Duration, staleTTL: Duration
    ) -> Answer {
        state.withLock { state in
            state.loading[key] = nil
            let now = clock.now()
            if document.mayServeStale, let kept = state.documents.peek(key), let staleUntil = kept.staleUntil, staleUntil > now {
                // The last good answer stands in; the backend is asked again after the failure TTL, or at
                // the stale bound if that comes first (RFC 5861 §4: never served past it; a 404 then replaces it).
                if document.isCacheable {
                    state.storeDocument(Entry(document: kept.document, expires: min(now + failureTTL, staleUntil), staleUntil: staleUntil), for: key)
                }
                return Answer(document: kept.document, staleFor: document)
            }
            if !document.isCacheable {
                state.removeDocument(key)
            } else if case .tracks = document {
                state.storeDocument(Entry(document: document, expires: now + successTTL, staleUntil: now + successTTL + staleTTL), for: key)
            } else {
                state.storeDocument(Entry(document: document, expires: now + failureTTL, staleUntil: nil), for: key)
            }
            return Answer(document: document, staleFor: nil)
        }
    }

    /// The live verdict for a source host, or nil when none is known.
    func hostVerdict(for key: String) -> HostVerdict? {
        state.withLock { state in
            guard let entry = state.verdicts.value(for: key), entry.expires > clock.now() else { return nil }
            return entry.verdict
        }
    }

    /// Keeps a source host's verdict for `ttl`.
    func storeHostVerdict(_ verdict: HostVerdict, for key: String, ttl: Duration) {
        state.withLock { state in
            _ = state.verdicts.set((verdict, clock.now() + ttl), for: key)
        }
    }
}
