import HLS

extension TrackBackend {
    /// What one answer's body holds: tracks exactly as the config file would take them, each checked on
    /// its own (an invalid one is dropped alone, its reason returned), then the group rules across the rest.
    struct DecodedTracks {
        var tracks: [TrackConfig] = []
        /// One line per dropped track, `tracks[i]...: why` (one line for all those past `maxTracks`).
        var dropped: [String] = []
        /// Tracks past `maxTracks`, each dropped, all in one line of `dropped`.
        var overflow = 0
        /// Every track left out.
        var droppedCount: Int { dropped.count + max(0, overflow - 1) }
    }

    /// The most tracks taken from one answer; a master lists each, so more is a backend bug, not a catalog.
    static let maxTracks = 100

    /// Parses `{"tracks": [...]}` with the config's JSON parser and track decoder; a document that is not
    /// that shape comes back as `.failure` with the metric label and a one-line detail.
    static func decode(_ body: [UInt8]) -> Result<DecodedTracks, TrackBackendFailure> {
        let document: ConfigValue
        switch ConfigValue.parse(body) {
        case .success(let value): document = value
        case .failure(let error):
            let detail = error.problems.first.map { $0.replacingOccurrences(of: "(file): ", with: "") } ?? "not JSON"
            return .failure(TrackBackendFailure(label: "not_json", detail: detail))
        }
        guard case .object(let members) = document else {
            return .failure(TrackBackendFailure(label: "no_tracks", detail: "expected an object with a \"tracks\" array, got \(document.summary)"))
        }
        guard case .array(let elements)? = members["tracks"] else {
            let got = members["tracks"].map { $0.summary } ?? "nothing"
            return .failure(TrackBackendFailure(label: "no_tracks", detail: "expected a \"tracks\" array, got \(got)"))
        }
        return .success(tracks(elements))
    }

    private static func tracks(_ elements: [ConfigValue]) -> DecodedTracks {
        var decoded = DecodedTracks()
        let path = ConfigPath.root.key("tracks")
        // Each track alone: the field checks and the rendition rules that concern one track.
        var drafts: [(index: Int, draft: TrackDraft)] = []
        if elements.count > maxTracks {
            // One line for them all: a runaway answer must not become a runaway log.
            decoded.dropped.append("\(path.index(maxTracks))...: \(elements.count - maxTracks) tracks past the first \(maxTracks)")
            decoded.overflow = elements.count - maxTracks
        }
        for (index, element) in elements.prefix(maxTracks).enumerated() {
            let trackPath = path.index(index)
            // No environment: `${NAME}` in a backend's answer is refused, never filled with the proxy's secrets.
            var reader = ConfigReader(environment: [:])
            let draft = TrackDecoder.trackDraft(element, at: trackPath, in: &reader)
            if let error = reader.error {
                decoded.dropped.append(error.problems.joined(separator: "; "))
                continue
            }
            guard let draft else {
                decoded.dropped.append("\(trackPath): could not be read")
                continue
            }
            if let problem = SubtitleTrack.problems(in: [draft.track]).first {
                decoded.dropped.append("\(SubtitleSetDecoder.jsonPath(ofTrackField: problem.field, in: draft, at: trackPath)): \(problem.message)")
                continue
            }
            drafts.append((index, draft))
        }
        // RFC 8216 §4.3.4.1.1: NAME unique in the group, one DEFAULT at most: the later track gives way.
        let clashing = SubtitleTrack.problems(in: drafts.map(\.draft.track))
        var refused: Set<Int> = []
        for problem in clashing where drafts.indices.contains(problem.trackIndex) && refused.insert(problem.trackIndex).inserted {
            let entry = drafts[problem.trackIndex]
            let fieldPath = SubtitleSetDecoder.jsonPath(ofTrackField: problem.field, in: entry.draft, at: path.index(entry.index))
            decoded.dropped.append("\(fieldPath): \(problem.message)")
        }
        let kept = drafts.enumerated().filter { !refused.contains($0.offset) }.map(\.element)
        // Ids as the config assigns them: explicit ones unique, omitted ones the language, then language-2, ...
        var taken = Set(kept.compactMap(\.draft.id))
        var seen: Set<String> = []
        for (index, draft) in kept {
            var id: String
            if let explicit = draft.id {
                guard seen.insert(explicit).inserted else {
                    decoded.dropped.append("\(path.index(index)).id: id \(ConfigReader.quoted(explicit)) is already used in this answer")
                    continue
                }
                id = explicit
            } else {
                id = draft.track.language
                var counter = 2
                while taken.contains(id) {
                    id = "\(draft.track.language)-\(counter)"
                    counter += 1
                }
                taken.insert(id)
            }
            decoded.tracks.append(
                TrackConfig(
                    id: id, track: draft.track, source: draft.source, format: draft.format, offset: draft.offset,
                    mode: draft.mode, segmentDuration: draft.segmentDuration, mpegts: draft.mpegts, optional: draft.optional))
        }
        return decoded
    }
}

/// Why a `tracks_url` gave no tracks: `label` for the metric, `detail` for the warn line.
struct TrackBackendFailure: Error, Sendable, Equatable {
    var label: String
    var detail: String
    /// The backend answered that the asset does not exist (404, 410).
    var assetGone = false
}
