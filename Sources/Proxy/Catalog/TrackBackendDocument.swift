/// A `tracks_url` answer as read, before its sources are resolved against a master: what is cached per
/// URL and header set, so every master that shares a backend URL shares one fetch.
enum TrackBackendDocument: Sendable {
    /// The tracks that passed the config's own validation (sources possibly relative), how many were
    /// dropped, and why (one line each, logged once per fetch).
    case tracks([TrackConfig], dropped: Int, droppedReasons: [String])
    /// The fetch or the document failed: `label` names it in the metric, `detail` in the warn line.
    /// `assetGone`: the backend said the asset does not exist (404, 410), an answer, not an outage.
    case failed(label: String, detail: String, assetGone: Bool)

    /// Whether the outcome says something about the backend worth keeping: load shedding says
    /// nothing about it, so the next request asks again.
    var isCacheable: Bool {
        if case .failed(label: "overloaded", _, _) = self { return false }
        return true
    }

    /// Whether a last good answer may stand in for this one (RFC 5861 §4, stale-if-error): any failure
    /// but the backend's word that the asset is gone, which replaces what was known of it.
    var mayServeStale: Bool {
        if case .failed(_, _, let assetGone) = self { return !assetGone }
        return false
    }
}
