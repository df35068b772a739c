import HTTPClient
import HTTPServer
import Synchronization

/// Counters and histograms exposed at `/metrics` in the Prometheus text format 0.0.4.
public final class ProxyMetrics: Sendable {
    /// Upper bounds of the origin latency histogram, in seconds.
    static let latencyBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Histogram {
        var buckets = [Int](repeating: 0, count: ProxyMetrics.latencyBuckets.count)
        var count = 0
        var sum = 0.0
    }

    /// One lock-free count: every response bumps one, from any loop thread.
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    private struct State {
        var originLatency: [String: Histogram] = [:] // by kind
        var subtitleFallbacks: [String: Int] = [:]   // by reason
        var subtitleCuesCapped = 0
        var tracksBackendFailures: [String: Int] = [:] // by reason
        var tracksBackendSuccesses = 0
        var tracksBackendStale: [String: Int] = [:]  // by the failure's reason
        var signedRefusals: [String: Int] = [:]      // by reason
    }

    private let state = Mutex(State())
    /// Requests by route and status class: `route.index * 6 + class` (class 0 for codes under 100).
    private let requests = (0..<(ProxyRoute.allCases.count * 6)).map { _ in Counter() }
    /// Configuration reloads (SIGHUP) applied and refused.
    private let reloadsApplied = Counter()
    private let reloadsRefused = Counter()

    /// The statuses the HTTP server refuses requests with, each counted apart under `route="rejected"`
    /// (which of them it was is the news: 408 is a slow client, 431 a huge header, 503 the connection cap).
    static let rejectionStatuses = [400, 405, 408, 413, 414, 431, 501, 503, 505]
    private let rejections = ProxyMetrics.rejectionStatuses.map { _ in Counter() }

    /// Makes an empty set of metrics.
    public init() {}

    /// Counts one answered request.
    func recordRequest(route: ProxyRoute, status: Int) {
        if route == .rejected, let position = ProxyMetrics.rejectionStatuses.firstIndex(of: status) {
            rejections[position].value.add(1, ordering: .relaxed)
            return
        }
        let statusClass = min(max(status / 100, 0), 5)
        requests[route.index &* 6 &+ statusClass].value.add(1, ordering: .relaxed)
    }

    /// Counts one configuration reload, applied or refused.
    func recordConfigReload(applied: Bool) {
        (applied ? reloadsApplied : reloadsRefused).value.add(1, ordering: .relaxed)
    }

    /// Records how long one origin fetch took.
    func recordOriginFetch(kind: String, seconds: Double) {
        state.withLock { state in
            var histogram = state.originLatency[kind] ?? Histogram()
            for (index, bound) in ProxyMetrics.latencyBuckets.enumerated() where seconds <= bound {
                histogram.buckets[index] += 1
            }
            histogram.count += 1
            histogram.sum += seconds
            state.originLatency[kind] = histogram
        }
    }

    /// Counts a subtitle served as the empty fallback track.
    func recordSubtitleFallback(reason: String) {
        state.withLock { $0.subtitleFallbacks[reason, default: 0] += 1 }
    }

    /// Counts a subtitle source cut to `limits.max_subtitle_cues`.
    func recordSubtitleCuesCapped() {
        state.withLock { $0.subtitleCuesCapped += 1 }
    }

    /// Counts a `tracks_url` fetch that gave no tracks, by reason (`timeout`, `status`, `not_json`, ...).
    func recordTracksBackendFailure(reason: String) {
        state.withLock { $0.tracksBackendFailures[reason, default: 0] += 1 }
    }

    /// Counts a failed `tracks_url` refresh whose last good answer was served instead, by the failure's reason.
    func recordTracksBackendStale(reason: String) {
        state.withLock { $0.tracksBackendStale[reason, default: 0] += 1 }
    }

    /// `tracks_url` refreshes that failed for `reason` and were answered from the last good answer (for tests).
    func tracksBackendStaleServed(reason: String) -> Int {
        state.withLock { $0.tracksBackendStale[reason] ?? 0 }
    }

    /// Counts a `tracks_url` fetch whose answer was read (some tracks may still have been dropped).
    func recordTracksBackendSuccess() {
        state.withLock { $0.tracksBackendSuccesses += 1 }
    }

    /// `tracks_url` fetches that failed for `reason`, or succeeded when `reason` is nil (for tests).
    func tracksBackendFetches(failedFor reason: String?) -> Int {
        state.withLock { state in reason.map { state.tracksBackendFailures[$0] ?? 0 } ?? state.tracksBackendSuccesses }
    }

    /// Counts a signed playback URL refused with 403 (`SignedTokenRefusal.Reason`).
    func recordSignedRefusal(reason: String) {
        state.withLock { $0.signedRefusals[reason, default: 0] += 1 }
    }

    /// How many signed URLs were refused for `reason` (for tests).
    func signedRefusals(reason: String) -> Int {
        state.withLock { $0.signedRefusals[reason] ?? 0 }
    }

    /// How many fallbacks were served for `reason` (for tests and logs).
    func subtitleFallbacks(reason: String) -> Int {
        state.withLock { $0.subtitleFallbacks[reason] ?? 0 }
    }

    /// The exposition text; gauges and cache counters are passed in by the caller that owns them. The
    /// disk cache's lines appear only when it is on (`disk` not nil).
    func render(
        openConnections: Int, caches: [(name: String, hits: Int, misses: Int, bytes: Int)], disk: DiskCacheMetrics? = nil,
        originExchanges: HTTPExchangeSlots? = nil
    ) -> String {
        let snapshot = state.withLock { $0 }
        var out = ""
        out += "# HELP hls_proxy_requests_total Requests answered, by route and status class (the exact status for route rejected).\n"
        out += "# TYPE hls_proxy_requests_total counter\n"
        for route in ProxyRoute.allCases {
            if route == .rejected {
                for (position, status) in ProxyMetrics.rejectionStatuses.enumerated() {
                    let value = rejections[position].value.load(ordering: .relaxed)
                    guard value > 0 else { continue }
                    out += "hls_proxy_requests_total{route=\"rejected\",status=\"\(status)\"} \(value)\n"
                }
            }
            for statusClass in 0..<6 {
                let value = requests[route.index * 6 + statusClass].value.load(ordering: .relaxed)
                guard value > 0 else { continue }
                out += "hls_proxy_requests_total{route=\"\(route.name)\",status=\"\(statusClass)xx\"} \(value)\n"
            }
        }
        out += "# HELP hls_proxy_origin_fetch_duration_seconds Origin fetch latency, by kind.\n"
        out += "# TYPE hls_proxy_origin_fetch_duration_seconds histogram\n"
        for kind in snapshot.originLatency.keys.sorted() {
            guard let histogram = snapshot.originLatency[kind] else { continue }
            for (index, bound) in ProxyMetrics.latencyBuckets.enumerated() {
                out += "hls_proxy_origin_fetch_duration_seconds_bucket{kind=\"\(kind)\",le=\"\(bound)\"} \(histogram.buckets[index])\n"
            }
            out += "hls_proxy_origin_fetch_duration_seconds_bucket{kind=\"\(kind)\",le=\"+Inf\"} \(histogram.count)\n"
            out += "hls_proxy_origin_fetch_duration_seconds_sum{kind=\"\(kind)\"} \(histogram.sum)\n"
            out += "hls_proxy_origin_fetch_duration_seconds_count{kind=\"\(kind)\"} \(histogram.count)\n"
        }
        out += "# HELP hls_proxy_cache_hits_total Cache lookups that found a live entry.\n"
        out += "# TYPE hls_proxy_cache_hits_total counter\n"
        for cache in caches { out += "hls_proxy_cache_hits_total{cache=\"\(cache.name)\"} \(cache.hits)\n" }
        out += "# HELP hls_proxy_cache_misses_total Cache lookups that found nothing live.\n"
        out += "# TYPE hls_proxy_cache_misses_total counter\n"
        for cache in caches { out += "hls_proxy_cache_misses_total{cache=\"\(cache.name)\"} \(cache.misses)\n" }
        out += "# HELP hls_proxy_cache_bytes Bytes held by each in-memory cache.\n"
        out += "# TYPE hls_proxy_cache_bytes gauge\n"
        for cache in caches { out += "hls_proxy_cache_bytes{cache=\"\(cache.name)\"} \(cache.bytes)\n" }
        out += "# HELP hls_proxy_open_connections Client connections currently open.\n"
        out += "# TYPE hls_proxy_open_connections gauge\n"
        out += "hls_proxy_open_connections \(openConnections)\n"
        out += Self.reasonCounter("hls_proxy_subtitle_fallbacks_total", help: "Subtitle files served as an empty track, by reason.", counts: snapshot.subtitleFallbacks)
        out += "# HELP hls_proxy_subtitle_cues_capped_total Subtitle sources cut to limits.max_subtitle_cues (the first cues served).\n"
        out += "# TYPE hls_proxy_subtitle_cues_capped_total counter\n"
        out += "hls_proxy_subtitle_cues_capped_total \(snapshot.subtitleCuesCapped)\n"
        out += "# HELP hls_proxy_tracks_backend_fetches_total Fetches from a subtitle set's tracks_url whose answer was read.\n"
        out += "# TYPE hls_proxy_tracks_backend_fetches_total counter\n"
        out += "hls_proxy_tracks_backend_fetches_total \(snapshot.tracksBackendSuccesses)\n"
        out += Self.reasonCounter("hls_proxy_tracks_backend_failures_total", help: "Fetches from a subtitle set's tracks_url that gave no tracks, by reason.", counts: snapshot.tracksBackendFailures)
        out += Self.reasonCounter("hls_proxy_tracks_backend_stale_served_total", help: "Failed tracks_url refreshes answered with the last good answer (stale-if-error), by the failure's reason.", counts: snapshot.tracksBackendStale)
        out += Self.reasonCounter("hls_proxy_signed_refusals_total", help: "Signed playback URLs refused with 403, by reason.", counts: snapshot.signedRefusals)
        out += "# HELP hls_proxy_config_reloads_total Configuration reloads (SIGHUP), by result.\n"
        out += "# TYPE hls_proxy_config_reloads_total counter\n"
        out += "hls_proxy_config_reloads_total{result=\"ok\"} \(reloadsApplied.value.load(ordering: .relaxed))\n"
        out += "hls_proxy_config_reloads_total{result=\"failed\"} \(reloadsRefused.value.load(ordering: .relaxed))\n"
        if let originExchanges { out += Self.render(originExchanges) }
        if let disk { out += Self.render(disk) }
        return out
    }

    /// A counter labelled by reason, in the Prometheus text format, reasons sorted so the output is stable.
    static func reasonCounter(_ name: String, help: String, counts: [String: Int]) -> String {
        var out = "# HELP \(name) \(help)\n# TYPE \(name) counter\n"
        for reason in counts.keys.sorted() { out += "\(name){reason=\"\(reason)\"} \(counts[reason] ?? 0)\n" }
        return out
    }

    /// The origin exchange ceiling: in flight, the limit, and requests shed past it.
    static func render(_ slots: HTTPExchangeSlots) -> String {
        var out = ""
        out += "# HELP hls_proxy_origin_exchanges Origin exchanges in flight (each a thread and two descriptors).\n"
        out += "# TYPE hls_proxy_origin_exchanges gauge\n"
        out += "hls_proxy_origin_exchanges \(slots.inFlight)\n"
        out += "# HELP hls_proxy_origin_exchanges_limit The ceiling on origin exchanges in flight (limits.max_origin_exchanges).\n"
        out += "# TYPE hls_proxy_origin_exchanges_limit gauge\n"
        out += "hls_proxy_origin_exchanges_limit \(slots.limit)\n"
        out += "# HELP hls_proxy_origin_shed_total Origin exchanges refused at the ceiling; their requests got 503 with Retry-After.\n"
        out += "# TYPE hls_proxy_origin_shed_total counter\n"
        out += "hls_proxy_origin_shed_total \(slots.refused)\n"
        return out
    }

    /// The disk cache's counters and gauges.
    static func render(_ disk: DiskCacheMetrics) -> String {
        let counted = disk.counters
        var out = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: Int)]) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for sample in samples { out += "\(name)\(sample.labels) \(sample.value)\n" }
        }
        metric("hls_proxy_disk_cache_hits_total", "counter", "Pass-through requests answered wholly from the disk cache.", [("", counted.hits)])
        metric("hls_proxy_disk_cache_partial_hits_total", "counter",
               "Pass-through requests answered partly from stored ranges, the missing ranges fetched.", [("", counted.partialHits)])
        metric("hls_proxy_disk_cache_misses_total", "counter", "Cacheable pass-through requests answered from the origin alone.", [("", counted.misses)])
        metric("hls_proxy_disk_cache_bytes_served_total", "counter", "Body bytes of cacheable pass-through responses, by where they came from.",
               [("{source=\"disk\"}", counted.bytesFromDisk), ("{source=\"origin\"}", counted.bytesFromOrigin)])
        metric("hls_proxy_disk_cache_bytes", "gauge", "Bytes of the files the disk cache holds, headers included.", [("", disk.bytes)])
        metric("hls_proxy_disk_cache_objects", "gauge", "Files the disk cache holds: complete objects (entry) and stored ranges (piece).",
               [("{kind=\"entry\"}", disk.entries), ("{kind=\"piece\"}", disk.pieces)])
        metric("hls_proxy_disk_cache_evictions_total", "counter", "Stored files removed to stay under the byte budget.", [("", disk.evictions)])
        metric("hls_proxy_disk_cache_errors_total", "counter", "Disk errors of the disk cache, by operation; the object is then not cached, and still served whole.",
               ["create", "write", "sync", "rename", "delete"].map { ("{operation=\"\($0)\"}", disk.errors[$0] ?? 0) })
        metric("hls_proxy_disk_cache_fills_running", "gauge", "Objects being copied into the disk cache.", [("", disk.fillsRunning)])
        metric("hls_proxy_disk_cache_reserved_bytes", "gauge", "Bytes the running fills reserved against the disk budget.", [("", disk.reservedBytes)])
        return out
    }
}
