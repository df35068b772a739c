/// What a subtitle set's `tracks_url` gave for one master: its tracks, or why there are none.
enum TrackBackendResult: Sendable, Equatable {
    /// The tracks that passed every check, in the backend's order, sources absolute; `dropped` counts
    /// those left out (each with a warn line saying why).
    case tracks([TrackConfig], dropped: Int)
    /// No tracks: the backend could not be asked or its answer could not be read (`reason` is one line,
    /// `label: detail`, where the label is the metric's).
    case failed(reason: String)
}
