extension MasterPlaylistRewriter {
    /// What adding `CLOSED-CAPTIONS=NONE` did to a master.
    public enum ClosedCaptionsOutcome: Sendable, Equatable {
        /// `variants` variants lacking the attribute got `CLOSED-CAPTIONS=NONE`.
        case added(variants: Int)
        /// Every variant already had a CLOSED-CAPTIONS attribute.
        case alreadyPresent
        /// Some variants reference a CLOSED-CAPTIONS group and others have none: adding NONE would make
        /// them disagree (RFC 8216 §4.3.4.2), so the master was left as it was.
        case mixed
        /// A variant lacking the attribute has an attribute list that cannot be edited: NONE on the
        /// others only would make them disagree, so the master was left as it was.
        case unreadableVariant
    }

    /// Adds `CLOSED-CAPTIONS=NONE` to every `#EXT-X-STREAM-INF` without a CLOSED-CAPTIONS attribute
    /// (Apple's authoring guidance for streams without in-band captions).
    ///
    /// RFC 8216 §4.3.4.2: when any variant has CLOSED-CAPTIONS=NONE, all of them must; so when one
    /// variant names a group (a quoted-string, or any value other than NONE), nothing is added.
    public static func addClosedCaptionsNone(to playlist: inout Playlist) -> ClosedCaptionsOutcome {
        var lacking: [Int] = []
        var namesGroup = false
        for (index, line) in playlist.lines.enumerated() where line.tagName == "EXT-X-STREAM-INF" {
            let attributes = line.attributes ?? AttributeList()
            guard let captions = attributes["CLOSED-CAPTIONS"] else {
                lacking.append(index)
                continue
            }
            if captions.isQuoted || captions.value != "NONE" { namesGroup = true }
        }
        if lacking.isEmpty { return .alreadyPresent }
        if namesGroup { return .mixed }
        // All or none: every lacking variant is edited on a copy first.
        var edited: [(index: Int, attributes: AttributeList)] = []
        for index in lacking {
            guard var attributes = playlist.lines[index].attributes, attributes.problem == nil,
                  (try? attributes.set("CLOSED-CAPTIONS", unquoted: "NONE")) != nil
            else { return .unreadableVariant }
            edited.append((index, attributes))
        }
        for (index, attributes) in edited {
            playlist.lines[index].replaceAttributes(with: attributes)
        }
        return .added(variants: edited.count)
    }
}
