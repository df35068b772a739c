extension TrackResolver {
    /// The tracks `resolve` gives when it needs no I/O: a set without `tracks_url` and without optional
    /// tracks (whose sources are probed); nil otherwise.
    func resolvedWithoutIO(_ set: SubtitleSet, master: OriginTarget) -> ResolvedTracks? {
        guard set.tracksURL == nil, !set.tracks.contains(where: \.optional) else { return nil }
        let present = substitutingCaptures(in: set, master: master)
        let choices = PlayerChoices(query: targetQuery(master.proxyTarget))
        return ResolvedTracks(tracks: choices.isEmpty ? present : choices.applied(to: present))
    }
}
