import HLS

/// The `subtitles` section: each set's masters, group and tracks, problems reported to the reader.
enum SubtitleSetDecoder {
    /// Subtitle sets from the `subtitles` array; invalid ones are reported and left out.
    static func subtitleSets(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> [SubtitleSet] {
        guard let elements = reader.array(value, at: path) else { return [] }
        var sets: [SubtitleSet] = []
        var firstIndexByName: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            let setPath = path.index(index)
            guard let set = subtitleSet(element, at: setPath, in: &reader) else { continue }
            if let first = firstIndexByName[set.name] {
                reader.report(setPath.key("name"), "name \(ConfigReader.quoted(set.name)) is already used by subtitles[\(first)]")
                continue
            }
            firstIndexByName[set.name] = index
            sets.append(set)
        }
        return sets
    }

    private static func subtitleSet(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> SubtitleSet? {
        guard let members = reader.object(value, at: path, keys: [
            "name", "masters", "group_id", "tracks", "wrap_media_playlists", "wrap_bandwidth", "closed_captions", "tracks_url",
            "tracks_headers", "source_hosts",
        ]) else {
            if value == .null { reader.report(path, "expected an object, got null") }
            return nil
        }
        var name = reader.requiredString(members["name"], at: path.key("name"))
        if let text = name, !ConfigReader.isURLSafeName(text) {
            reader.report(path.key("name"), "set name \(ConfigReader.quoted(text)) must be letters, digits, '-' and '_'")
            name = nil
        }
        // Signed playback URLs live under /_hls-proxy/v1/signed/ (SignedURL), where a set's name would go.
        if let text = name, text == SignedURL.reservedSetName {
            reader.report(path.key("name"), "set name \"\(text)\" is reserved for signed playback URLs")
            name = nil
        }
        var masters = SubtitleSet.defaultMasters
        if let patterns = reader.strings(members["masters"], at: path.key("masters")) {
            masters = patterns.filter { !$0.isEmpty }.map(PathPattern.init)
            if patterns.contains(where: \.isEmpty) { reader.report(path.key("masters"), "contains an empty pattern") }
            if patterns.isEmpty { reader.report(path.key("masters"), "lists no patterns, so the set would never apply") }
        }
        var groupID = "subs"
        if let text = reader.string(members["group_id"], at: path.key("group_id")) {
            // RFC 8216 §4.2: GROUP-ID is a quoted-string, which has no escape for '"'.
            if text.isEmpty || text.contains("\"") {
                reader.report(path.key("group_id"), "group_id \(ConfigReader.quoted(text)) must be non-empty and without '\"'")
            } else {
                groupID = text
            }
        }
        for (index, pattern) in masters.enumerated() {
            if let problem = pattern.templateProblem {
                reader.report(path.key("masters").index(index), problem)
            } else if Set(pattern.captureNames).count != pattern.captureNames.count {
                reader.report(path.key("masters").index(index), "names a capture twice: each {name} may appear once in a pattern")
            }
        }
        let backend = backendFields(members, at: path, in: &reader)
        if let url = backend.tracksURL {
            checkURLCaptures(url, at: path.key("tracks_url"), masters: masters, mastersGiven: members["masters"] != nil, in: &reader)
        }
        let tracks = trackConfigs(members["tracks"], at: path.key("tracks"), required: !backend.hasURL, in: &reader)
        if case .array(let elements)? = members["tracks"] {
            checkCaptures(elements, tracksPath: path.key("tracks"), masters: masters, mastersGiven: members["masters"] != nil, in: &reader)
        }
        let wrap = reader.bool(members["wrap_media_playlists"], at: path.key("wrap_media_playlists")) ?? false
        var wrapBandwidth = SubtitleSet.defaultWrapBandwidth
        if let bits = reader.integer(members["wrap_bandwidth"], at: path.key("wrap_bandwidth")) {
            // RFC 8216 §4.3.4.2: BANDWIDTH is a decimal-integer, and a player divides by it; zero says nothing.
            if bits < 1 || bits > 1_000_000_000_000 {
                reader.report(path.key("wrap_bandwidth"), "wrap_bandwidth \(bits) must be between 1 and 1000000000000 bits per second")
            } else {
                wrapBandwidth = Int(bits)
            }
        }
        let closedCaptionsNone = closedCaptions(members["closed_captions"], at: path.key("closed_captions"), in: &reader)
        guard let name else { return nil }
        var set = SubtitleSet(name: name, masters: masters, groupID: groupID, tracks: tracks)
        set.closedCaptionsNone = closedCaptionsNone
        set.wrapMediaPlaylists = wrap
        set.wrapBandwidth = wrapBandwidth
        set.tracksURL = backend.tracksURL
        set.tracksHeaders = backend.headers
        set.sourceHosts = backend.sourceHosts
        return set
    }

    /// Each capture a track's `source` or `name` uses must be defined by every pattern of `masters`,
    /// since any of them may be the one that claims a request.
    private static func checkCaptures(
        _ elements: [ConfigValue], tracksPath: ConfigPath, masters: [PathPattern], mastersGiven: Bool, in reader: inout ConfigReader
    ) {
        for (index, element) in elements.enumerated() {
            guard case .object(let members) = element else { continue }
            for key in ["source", "name"] {
                let fieldPath = tracksPath.index(index).key(key)
                // Read as the track decoder read it, `${ENV}` expanded (its problems are reported already).
                guard case .string(let raw) = members[key], !reader.hasProblem(at: fieldPath),
                      let text = reader.expand(raw, at: fieldPath), Template.mayHaveCaptures(text) else { continue }
                let template: Template
                do {
                    template = try Template(parsing: text)
                } catch {
                    reader.report(fieldPath, error.reason)
                    continue
                }
                // Templated sources are trusted as written sources are, so the request may fill in
                // the path, never the host the proxy connects to. A scheme-relative `//host/...` has
                // its authority after the `//` (RFC 3986 §4.2).
                if key == "source", let authorityStart = Self.authorityStart(of: text),
                   text[authorityStart...].prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" }).contains("{") {
                    reader.report(fieldPath, "a capture may not stand in the source's host: the request path would choose where the proxy connects")
                    continue
                }
                if let problem = undefinedCapture(in: template, masters: masters, mastersGiven: mastersGiven) {
                    reader.report(fieldPath, problem)
                }
            }
        }
    }

    /// "uses {name}, which masters[i] ... does not define" for the first capture of `template` that a
    /// pattern of `masters` lacks; nil when every pattern defines every capture.
    /// Where the authority of URL `text` starts: after `://`, or after a leading `//` (a network-path
    /// reference, RFC 3986 §4.2); nil when it has none (a path reference names no host).
    static func authorityStart(of text: String) -> String.Index? {
        if text.hasPrefix("//") { return text.index(text.startIndex, offsetBy: 2) }
        return text.range(of: "://")?.upperBound
    }

    private static func undefinedCapture(in template: Template, masters: [PathPattern], mastersGiven: Bool) -> String? {
        for name in template.captureNames {
            guard let position = masters.firstIndex(where: { !$0.captureNames.contains(name) }) else { continue }
            let which = mastersGiven ? "masters[\(position)]" : "the default masters pattern"
            return "uses {\(name)}, which \(which) \(ConfigReader.quoted(masters[position].pattern)) does not define"
        }
        return nil
    }

    /// Each capture `tracks_url` uses must be defined by every pattern of `masters`, as for track sources:
    /// whichever pattern claims a request, the backend URL is filled in whole.
    private static func checkURLCaptures(
        _ url: String, at fieldPath: ConfigPath, masters: [PathPattern], mastersGiven: Bool, in reader: inout ConfigReader
    ) {
        guard Template.mayHaveCaptures(url) else { return }
        let template: Template
        do {
            template = try Template(parsing: url)
        } catch {
            reader.report(fieldPath, error.reason)
            return
        }
        if let problem = undefinedCapture(in: template, masters: masters, mastersGiven: mastersGiven) {
            reader.report(fieldPath, problem)
        }
    }

    /// `closed_captions`: absent leaves masters as they are; "none" is the only value.
    private static func closedCaptions(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> Bool {
        guard let value else { return false }
        guard let text = reader.string(value, at: path) else { return false }
        guard text == "none" else {
            reader.report(path, "expected \"none\" (the only value: CLOSED-CAPTIONS=NONE on variants without the attribute), got \(ConfigReader.quoted(text))")
            return false
        }
        return true
    }

    /// A set's tracks, each decoded and checked, the set's RFC 8216 rendition rules applied and ids given:
    /// configured tracks and a signed token's go through here alike. `required` is false when the set has a
    /// `tracks_url`, which may stand alone.
    static func trackConfigs(_ value: ConfigValue?, at path: ConfigPath, required: Bool = true, in reader: inout ConfigReader) -> [TrackConfig] {
        guard let elements = reader.array(value, at: path) else {
            if required { reader.report(path, "is required: list at least one track (or give the set a tracks_url)") }
            return []
        }
        if elements.isEmpty, required { reader.report(path, "lists no tracks") }
        var drafts: [(index: Int, draft: TrackDraft)] = []
        for (index, element) in elements.enumerated() {
            if let draft = TrackDecoder.trackDraft(element, at: path.index(index), in: &reader) { drafts.append((index, draft)) }
        }

        // RFC 8216 §4.3.4.1.1: the group rules, reported under the JSON names of the fields at fault.
        let problems = SubtitleTrack.problems(in: drafts.map(\.draft.track))
        for problem in problems where drafts.indices.contains(problem.trackIndex) {
            let entry = drafts[problem.trackIndex]
            let fieldPath = Self.jsonPath(ofTrackField: problem.field, in: entry.draft, at: path.index(entry.index))
            if !reader.hasProblem(at: fieldPath) { reader.report(fieldPath, problem.message) }
        }

        // Ids name URLs: explicit ones must be unique; omitted ones become the language, then language-2, ...
        var taken = Set(drafts.compactMap(\.draft.id))
        var seen: Set<String> = []
        var tracks: [TrackConfig] = []
        for (index, draft) in drafts {
            var id: String
            if let explicit = draft.id {
                guard seen.insert(explicit).inserted else {
                    reader.report(path.index(index).key("id"), "id \(ConfigReader.quoted(explicit)) is already used in this set")
                    continue
                }
                id = explicit
            } else {
                let base = draft.track.language
                id = base
                var counter = 2
                while taken.contains(id) {
                    id = "\(base)-\(counter)"
                    counter += 1
                }
                taken.insert(id)
            }
            tracks.append(
                TrackConfig(
                    id: id, track: draft.track, source: draft.source, format: draft.format, offset: draft.offset,
                    mode: draft.mode, segmentDuration: draft.segmentDuration, mpegts: draft.mpegts, optional: draft.optional))
        }
        return tracks
    }

    /// The JSON path of a `TrackProblem` field: `assocLanguage` is `assoc_language`, `characteristics[i]`
    /// points at the element as written.
    static func jsonPath(ofTrackField field: String, in draft: TrackDraft, at path: ConfigPath) -> ConfigPath {
        switch field {
        case "assocLanguage": return path.key("assoc_language")
        case "isDefault": return path.key("default")
        case _ where field.hasPrefix("characteristics["):
            let position = Int(field.dropFirst("characteristics[".count).dropLast()) ?? -1
            guard draft.characteristicIndices.indices.contains(position) else { return path.key("characteristics") }
            return path.key("characteristics").index(draft.characteristicIndices[position])
        default: return path.key(field)
        }
    }
}
