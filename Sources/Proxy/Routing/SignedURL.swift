/// The signed playback URLs (docs/signing.md): a master and its subtitle playlists and files, each
/// carrying the whole signed token, so that any instance with the key can answer them statelessly:
/// `/_hls-proxy/v1/signed/{token}/master.m3u8`, `.../{token}/{track}/index.m3u8` and `.../{track}/{n}.vtt`
/// (the suffixes are the ones players sniff).
struct SignedURL: Equatable, Sendable {
    /// The segment after `/_hls-proxy/v1/` that marks the signed form; no subtitle set may take it.
    static let reservedSetName = "signed"

    /// What is asked for under a token.
    enum Resource: Equatable, Sendable {
        /// The master playlist the token describes.
        case master
        /// A subtitle playlist or WebVTT file of the token's track `trackID`.
        case subtitle(trackID: String, SubtitleURL.Resource)
    }

    /// The token exactly as it appears in the path: verified byte for byte, never decoded or normalised.
    var token: String
    var resource: Resource
    /// The master request's query as sent (kept for the per-request choices), nil when there was none.
    var query: String?

    /// The absolute path of a resource under `token`.
    static func path(token: String, resource: Resource) -> String {
        let prefix = "/\(SubtitleURL.reservedPrefix)/v1/\(reservedSetName)/\(token)/"
        switch resource {
        case .master: return prefix + "master.m3u8"
        case .subtitle(let trackID, .playlist): return prefix + "\(trackID)/index.m3u8"
        case .subtitle(let trackID, .segment(let index)): return prefix + "\(trackID)/\(index).vtt"
        }
    }

    /// Parses the path segments that follow the reserved prefix (`v1`, `signed`, ...); nil when they
    /// are not the signed form. The token is not looked at here: the verifier refuses a bad one with 403.
    init?(segmentsAfterPrefix segments: ArraySlice<Substring>, query: String?) {
        let parts = Array(segments)
        guard parts.count == 4 || parts.count == 5, parts[0] == "v1", parts[1] == Self.reservedSetName, !parts[2].isEmpty else {
            return nil
        }
        if parts.count == 4 {
            guard parts[3] == "master.m3u8" else { return nil }
            self.init(token: String(parts[2]), resource: .master, query: query)
            return
        }
        let trackID = String(parts[3])
        guard ConfigReader.isURLSafeName(trackID) else { return nil }
        let leaf = parts[4]
        let resource: SubtitleURL.Resource
        if leaf == "index.m3u8" {
            resource = .playlist
        } else if leaf.hasSuffix(".vtt"), case let digits = leaf.dropLast(4), (1...6).contains(digits.utf8.count),
                  digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let index = Int(digits)
        {
            resource = .segment(index)
        } else {
            return nil
        }
        self.init(token: String(parts[2]), resource: .subtitle(trackID: trackID, resource), query: query)
    }

    init(token: String, resource: Resource, query: String? = nil) {
        self.token = token
        self.resource = resource
        self.query = query
    }
}
