/// A `tracks_url` answer as read, before its sources are resolved against a master: what is cached per
/// URL and header set, so every master that shares a backend URL shares one fetch.
enum TrackBackendDocument: Sendable {
    /// The tracks that passed the config's own validation (sources possibly relative), and how many
    /// were dropped.
    case tracks([TrackConfig], dropped: Int)
    /// The fetch or the document failed: `label` names it in the metric, `detail` in the warn line.
    case failed(label: String, detail: String)

    /// Whether the outcome says something about the backend worth keeping: load shedding says
    /// nothing about it, so the next request asks again.
    var isCacheable: Bool {
        if case .failed(label: "overloaded", _) = self { return false }
        return true
    }
}
