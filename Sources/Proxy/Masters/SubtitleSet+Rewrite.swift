import HLS

extension SubtitleSet {
    /// The master with this set's tracks added, each pointing at its synthesized playlist for the master
    /// the player asked for (`masterTarget`, the proxy path and query).
    func rewrite(_ master: [UInt8], masterTarget: String) throws(PlaylistError) -> [UInt8] {
        try rewriteReporting(master, masterTarget: masterTarget).bytes
    }

    /// `rewrite(_:masterTarget:)`, also saying what `closed_captions` did (nil when it is not set).
    func rewriteReporting(
        _ master: [UInt8], masterTarget: String
    ) throws(PlaylistError) -> (bytes: [UInt8], closedCaptions: MasterPlaylistRewriter.ClosedCaptionsOutcome?) {
        try rewriteReporting(master, tracks: tracks) { track in
            SubtitleURL(setName: name, trackID: track.id, masterTarget: masterTarget, resource: .playlist).path
        }
    }

    /// The master with `tracks` (this set's, as resolved for one request) added in this set's group,
    /// each pointing at `subtitleURI(track)`.
    func rewriteReporting(
        _ master: [UInt8], tracks: [TrackConfig], subtitleURI: (TrackConfig) -> String
    ) throws(PlaylistError) -> (bytes: [UInt8], closedCaptions: MasterPlaylistRewriter.ClosedCaptionsOutcome?) {
        let rewriter = MasterPlaylistRewriter(tracks: tracks.map(\.track), groupID: groupID, closedCaptionsNone: closedCaptionsNone)
        return try rewriter.rewriteReporting(master) { index in
            guard tracks.indices.contains(index) else { return "" }
            return subtitleURI(tracks[index])
        }
    }

    /// Whether one of this set's master rules matches a proxy path.
    func claims(_ path: String) -> Bool {
        masters.contains { $0.matches(path) }
    }
}

/// Splits a request target into raw path and query.
func splitTarget(_ target: String) -> (path: String, query: String?) {
    guard let mark = target.firstQuestionMark() else { return (target, nil) }
    // Past the "?" byte, not past a Character: a combining mark after it belongs to the query.
    return (String(target[..<mark]), String(target[target.utf8.index(after: mark)...]))
}

/// A request target's query (after the first `?`), or nil when it has none; the path is not copied.
func targetQuery(_ target: String) -> String? {
    guard let mark = target.firstQuestionMark() else { return nil }
    return String(target[target.utf8.index(after: mark)...])
}
