/// The tracks one master request lists, decided by `TrackResolver`: the set's tracks with captures
/// substituted, absent optional tracks dropped and the player's choices applied, in the set's order.
/// The master's renditions and the subtitle URLs under it are both answered from this list.
struct ResolvedTracks: Sendable, Hashable {
    /// The tracks to list, each with its rendition attributes as they are written into the master.
    var tracks: [TrackConfig]

    /// The listed track with this id, if any: a subtitle URL names its track by id.
    func track(id: String) -> TrackConfig? {
        tracks.first { $0.id == id }
    }
}
