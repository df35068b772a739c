/// Adds subtitle renditions to a master playlist (RFC 8216 §4.3.4.1, §4.3.4.2), touching nothing else.
///
/// - Every `#EXT-X-STREAM-INF` references a SUBTITLES group; `#EXT-X-I-FRAME-STREAM-INF` never does.
/// - Without existing SUBTITLES references, the tracks form the group `groupID`, suffixed `-2`, `-3`...
///   when an EXT-X-MEDIA other than ours already uses that GROUP-ID. A defined but unreferenced
///   SUBTITLES group is an orphan no player shows today; it stays unreferenced rather than switched on.
/// - With existing references, the tracks join every referenced group (a referenced group with no
///   EXT-X-MEDIA gets ours as its members), with NAMEs unique across those groups and DEFAULT=NO when a
///   group already has a DEFAULT=YES; variants without SUBTITLES get the first referenced group. A
///   SUBTITLES value that is unquoted, or holds a CR, is neither joined nor replaced.
/// - Variants gain `,SUBTITLES="<group>"` at the end of their attribute list; the rest keeps its spelling.
/// - New EXT-X-MEDIA lines go after the last EXT-X-MEDIA, else just before the first variant.
/// - Rewriting a rewritten master changes nothing: our renditions are found by GROUP-ID, NAME and URI.
/// - AUDIO, VIDEO and CLOSED-CAPTIONS groups, defined or dangling, are not ours to touch: left alone.
/// - With `closedCaptionsNone`, variants lacking CLOSED-CAPTIONS get `CLOSED-CAPTIONS=NONE` (see
///   `addClosedCaptionsNone(to:)`).
public struct MasterPlaylistRewriter: Sendable {
    /// The renditions to add, in the order they are written.
    public let tracks: [SubtitleTrack]
    /// The GROUP-ID used when the master has no SUBTITLES group of its own.
    public let groupID: String
    /// Whether variants without a CLOSED-CAPTIONS attribute get `CLOSED-CAPTIONS=NONE`.
    public let closedCaptionsNone: Bool

    /// Makes a rewriter for `tracks`, validated elsewhere (see `SubtitleTrack`).
    public init(tracks: [SubtitleTrack], groupID: String = "subs", closedCaptionsNone: Bool = false) {
        self.tracks = tracks
        self.groupID = groupID
        self.closedCaptionsNone = closedCaptionsNone
    }

    /// Rewrites `master`; `uri(i)` is the URI written for track `i`.
    ///
    /// Throws `.notAPlaylist` or `.notAMaster` for bodies to pass on unchanged; `.invalidTrackValue` or
    /// `.invalidAttribute` when a value cannot be quoted (RFC 8216 §4.2: no `"`, CR or LF);
    /// `.malformedAttributeList` when a variant's attribute list has an unterminated quoted string.
    public func rewrite(_ master: [UInt8], uri: (Int) -> String) throws(PlaylistError) -> [UInt8] {
        try rewriteReporting(master, uri: uri).bytes
    }

    /// Rewrites `master` like `rewrite(_:uri:)`, also saying what `closedCaptionsNone` did (nil when off).
    public func rewriteReporting(
        _ master: [UInt8], uri: (Int) -> String
    ) throws(PlaylistError) -> (bytes: [UInt8], closedCaptions: ClosedCaptionsOutcome?) {
        var playlist = try Playlist.parse(master)
        guard playlist.isMaster else { throw .notAMaster }
        let outcome = try rewrite(&playlist, uris: tracks.indices.map(uri))
        return (playlist.serialized(), outcome)
    }

    /// Rewrites a parsed master in place; `uris[i]` is track `i`'s URI. Returns what `closedCaptionsNone`
    /// did, nil when it is off.
    @discardableResult
    public func rewrite(_ playlist: inout Playlist, uris: [String]) throws(PlaylistError) -> ClosedCaptionsOutcome? {
        guard playlist.isMaster else { throw .notAMaster }
        try validate(uris: uris)
        let closedCaptions = closedCaptionsNone ? Self.addClosedCaptionsNone(to: &playlist) : nil
        try addRenditions(to: &playlist, uris: uris)
        return closedCaptions
    }

    private func addRenditions(to playlist: inout Playlist, uris: [String]) throws(PlaylistError) {
        // With nothing to add, a new group reference would dangle.
        guard !tracks.isEmpty else { return }
        let survey = try Survey(playlist)
        let targetGroups: [String]
        if survey.referencedGroups.isEmpty {
            targetGroups = [survey.unusedGroupID(startingFrom: groupID, ourURIs: Set(uris))]
        } else {
            targetGroups = survey.referencedGroups
        }
        let plan = RenditionPlan(tracks: tracks, uris: uris, groups: targetGroups, survey: survey)
        var newLines: [PlaylistLine] = []
        for group in targetGroups {
            for (index, track) in tracks.enumerated() where !plan.isPresent(track: index, in: group) {
                let attributes = try renditionAttributes(
                    track: track, index: index, group: group, name: plan.name(track: index, in: group),
                    isDefault: plan.isDefault(track: index), uri: uris[index]
                )
                newLines.append(PlaylistLine(tag: "EXT-X-MEDIA", attributes: attributes, ending: playlist.lineEnding))
            }
        }
        if let firstGroup = targetGroups.first {
            try addSubtitleGroup(firstGroup, to: survey.variantIndices, in: &playlist)
        }
        insert(newLines, into: &playlist, survey: survey)
    }

    /// Refuses values no quoted string can carry; the config loader should have refused them already.
    private func validate(uris: [String]) throws(PlaylistError) {
        guard AttributeList.canQuote(groupID), !groupID.isEmpty else { throw .invalidAttribute(name: "GROUP-ID") }
        for (index, track) in tracks.enumerated() {
            let values: [(String, String)] = [
                ("NAME", track.name), ("LANGUAGE", track.language), ("ASSOC-LANGUAGE", track.assocLanguage ?? ""),
                ("CHARACTERISTICS", track.characteristics.joined(separator: ",")),
                ("URI", index < uris.count ? uris[index] : ""),
            ]
            for (attribute, value) in values where !AttributeList.canQuote(value) {
                throw .invalidTrackValue(track: index, attribute: attribute)
            }
            if index >= uris.count { throw .invalidTrackValue(track: index, attribute: "URI") }
        }
    }

    /// The attribute list of one new EXT-X-MEDIA, in the order RFC 8216's examples use.
    private func renditionAttributes(
        track: SubtitleTrack, index: Int, group: String, name: String, isDefault: Bool, uri: String
    ) throws(PlaylistError) -> AttributeList {
        var list = AttributeList()
        do {
            try list.set("TYPE", unquoted: "SUBTITLES")
            try list.set("GROUP-ID", quoted: group)
            try list.set("NAME", quoted: name)
            if !track.language.isEmpty { try list.set("LANGUAGE", quoted: track.language) }
            if let assoc = track.assocLanguage, !assoc.isEmpty { try list.set("ASSOC-LANGUAGE", quoted: assoc) }
            try list.set("DEFAULT", unquoted: isDefault ? "YES" : "NO")
            // RFC 8216 §4.3.4.1: if DEFAULT is YES, AUTOSELECT must be YES.
            try list.set("AUTOSELECT", unquoted: track.autoselect || isDefault ? "YES" : "NO")
            // RFC 8216 §4.3.4.1: FORCED is only for SUBTITLES; absent means NO.
            if track.forced { try list.set("FORCED", unquoted: "YES") }
            if !track.characteristics.isEmpty {
                try list.set("CHARACTERISTICS", quoted: track.characteristics.joined(separator: ","))
            }
            try list.set("URI", quoted: uri)
        } catch {
            guard case .invalidAttribute(let attribute) = error else { throw error }
            throw .invalidTrackValue(track: index, attribute: attribute)
        }
        return list
    }

    /// RFC 8216 §4.2: an attribute appears at most once, so only variants without SUBTITLES get one.
    private func addSubtitleGroup(_ group: String, to variants: [Int], in playlist: inout Playlist) throws(PlaylistError) {
        for index in variants {
            var attributes = playlist.lines[index].attributes ?? AttributeList()
            guard !attributes.contains("SUBTITLES") else { continue }
            do {
                try attributes.set("SUBTITLES", quoted: group)
            } catch {
                throw .malformedAttributeList(line: index + 1)
            }
            playlist.lines[index].replaceAttributes(with: attributes)
        }
    }

    /// Inserts `newLines` after the last EXT-X-MEDIA, else before the first variant, keeping a missing
    /// final newline missing.
    private func insert(_ newLines: [PlaylistLine], into playlist: inout Playlist, survey: Survey) {
        var lines = newLines
        guard !lines.isEmpty else { return }
        if let last = survey.lastMediaIndex {
            if playlist.lines[last].ending == .none {
                playlist.lines[last].ending = playlist.lineEnding
                lines[lines.count - 1].ending = .none
            }
            playlist.lines.insert(contentsOf: lines, at: last + 1)
        } else if let first = survey.variantIndices.first {
            playlist.lines.insert(contentsOf: lines, at: first)
        }
    }
}
