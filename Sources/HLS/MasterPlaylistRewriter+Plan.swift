extension MasterPlaylistRewriter {
    /// Which of our renditions each target group already has, and the NAME and DEFAULT of the rest.
    struct RenditionPlan {
        private let uris: [String]
        private let renditionsByGroup: [String: [Survey.Rendition]]
        /// NAME per track: the one a previous rewrite gave it, else a fresh unique one.
        private var names: [String] = []
        /// Origin NAMEs per group (our own renditions excluded).
        private var originNames: [String: Set<String>] = [:]
        /// The one track that may be DEFAULT=YES, if any.
        private var defaultTrack: Int?

        init(tracks: [SubtitleTrack], uris: [String], groups: [String], survey: Survey) {
            self.uris = uris
            let targets = Set(groups)
            let members = survey.subtitleRenditions.filter { targets.contains($0.group) }
            renditionsByGroup = Dictionary(grouping: members, by: \.group)

            var ours: Set<Int> = []
            var previousNames: [Int: String] = [:]
            for (index, track) in tracks.enumerated() {
                let match = members.first { $0.uri == uris[index] && Self.isName($0.name, derivedFrom: track.name) }
                if let match {
                    previousNames[index] = match.name
                    ours.insert(match.lineIndex)
                }
            }
            let origin = members.filter { !ours.contains($0.lineIndex) }
            originNames = Dictionary(grouping: origin, by: \.group).mapValues { Set($0.map(\.name)) }

            // RFC 8216 §4.3.4.1.1: groups of one TYPE hold the same members with the same attributes
            // except URI, so a NAME is made unique against every target group at once.
            var taken = Set(origin.map(\.name))
            for (index, track) in tracks.enumerated() {
                let name = previousNames[index] ?? Self.uniqueName(track.name, avoiding: taken)
                taken.insert(name)
                names.append(name)
            }
            // RFC 8216 §4.3.4.1.1: at most one member of a group has DEFAULT=YES.
            if !origin.contains(where: \.isDefault) {
                defaultTrack = tracks.firstIndex(where: \.isDefault)
            }
        }

        /// True when `group` already has track `index` (same NAME and URI): nothing to add.
        func isPresent(track index: Int, in group: String) -> Bool {
            renditionsByGroup[group, default: []].contains { $0.uri == uris[index] && $0.name == names[index] }
        }

        /// The NAME for track `index` in `group`; differs from the other groups' only if a group has
        /// since gained an origin rendition of that name.
        func name(track index: Int, in group: String) -> String {
            let taken = originNames[group, default: []]
            return taken.contains(names[index]) ? Self.uniqueName(names[index], avoiding: taken) : names[index]
        }

        /// DEFAULT=YES for the first default track, unless the origin already has a default.
        func isDefault(track index: Int) -> Bool {
            index == defaultTrack
        }

        /// `base`, else `base (2)`, `base (3)`...: the first not in `taken`.
        static func uniqueName(_ base: String, avoiding taken: Set<String>) -> String {
            var candidate = base
            var suffix = 2
            while taken.contains(candidate) {
                candidate = "\(base) (\(suffix))"
                suffix += 1
            }
            return candidate
        }

        /// True for `base` itself or `base (n)`, the names `uniqueName` makes from it.
        static func isName(_ name: String, derivedFrom base: String) -> Bool {
            if name == base { return true }
            guard name.hasPrefix(base + " ("), name.hasSuffix(")") else { return false }
            let number = name.dropFirst(base.count + 2).dropLast()
            return !number.isEmpty && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber)
        }
    }
}
