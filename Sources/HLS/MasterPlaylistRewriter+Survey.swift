extension MasterPlaylistRewriter {
    /// What a master already holds that the rewrite depends on.
    struct Survey {
        /// One existing `#EXT-X-MEDIA:TYPE=SUBTITLES`.
        struct Rendition {
            let lineIndex: Int
            let group: String
            let name: String
            let uri: String?
            let isDefault: Bool
        }

        /// Line indices of `#EXT-X-STREAM-INF` tags, in order.
        private(set) var variantIndices: [Int] = []
        /// Quoted SUBTITLES group names the variants reference, in order of first use.
        private(set) var referencedGroups: [String] = []
        /// Every existing SUBTITLES rendition.
        private(set) var subtitleRenditions: [Rendition] = []
        /// Every GROUP-ID of an EXT-X-MEDIA whose TYPE is not SUBTITLES.
        private(set) var otherGroupIDs: Set<String> = []
        /// Index of the last `#EXT-X-MEDIA`, if any.
        private(set) var lastMediaIndex: Int?

        init(_ playlist: Playlist) throws(PlaylistError) {
            for (index, line) in playlist.lines.enumerated() where line.kind == .tag {
                switch line.tagName {
                case "EXT-X-STREAM-INF":
                    variantIndices.append(index)
                    guard let attributes = line.attributes else { continue }
                    if attributes.hasOpenQuote { throw .malformedAttributeList(line: index + 1) }
                    // SUBTITLES is a quoted-string (RFC 8216 §4.3.4.2); a group name we could not
                    // quote back, or an unquoted value, is left alone rather than joined.
                    if let subtitles = attributes["SUBTITLES"], subtitles.isQuoted,
                       AttributeList.canQuote(subtitles.value), !referencedGroups.contains(subtitles.value) {
                        referencedGroups.append(subtitles.value)
                    }
                case "EXT-X-MEDIA":
                    lastMediaIndex = index
                    guard let attributes = line.attributes, let group = attributes.value("GROUP-ID") else { continue }
                    guard attributes.value("TYPE") == "SUBTITLES" else {
                        otherGroupIDs.insert(group)
                        continue
                    }
                    subtitleRenditions.append(Rendition(
                        lineIndex: index, group: group, name: attributes.value("NAME") ?? "",
                        uri: attributes.value("URI"), isDefault: attributes.value("DEFAULT") == "YES"
                    ))
                default:
                    continue
                }
            }
        }

        /// `preferred`, or `preferred-2`, `preferred-3`... : the first that no EXT-X-MEDIA uses, except
        /// renditions of ours (URI in `ourURIs`) from an earlier rewrite.
        func unusedGroupID(startingFrom preferred: String, ourURIs: Set<String>) -> String {
            let taken = otherGroupIDs.union(
                subtitleRenditions.filter { $0.uri.map(ourURIs.contains) != true }.map(\.group)
            )
            var candidate = preferred
            var suffix = 2
            while taken.contains(candidate) {
                candidate = "\(preferred)-\(suffix)"
                suffix += 1
            }
            return candidate
        }
    }
}
