/// A signed token's payload: the JSON object behind its MAC (docs/signing.md), read with the config's
/// own parser and track decoder, so a token's tracks pass exactly the checks a configured set's do.
enum SignedPayloadDecoder {
    /// The latest expiry accepted: the end of year 9999 in unix seconds.
    static let latestExpiry: Int64 = 253_402_300_799

    static func token(_ payload: [UInt8], keyID: String) -> Result<SignedToken, SignedTokenRefusal> {
        // No `${VAR}` reaches the config reader's expansion: a token never reads the environment.
        if payload.indices.dropLast().contains(where: { payload[$0] == UInt8(ascii: "$") && payload[$0 + 1] == UInt8(ascii: "{") }) {
            return .failure(SignedTokenRefusal(.malformed, "malformed token: the payload has \"${\""))
        }
        let document: ConfigValue
        switch ConfigValue.parse(payload) {
        case .success(let value): document = value
        case .failure: return .failure(SignedTokenRefusal(.malformed, "malformed token: the payload is not JSON"))
        }
        var reader = ConfigReader(environment: [:])
        guard case .object = document,
              let members = reader.object(document, at: .root, keys: ["exp", "master", "tracks", "subtitles", "default"])
        else { return .failure(SignedTokenRefusal(.malformed, "malformed token: the payload is not a JSON object")) }
        let expiry = reader.integer(members["exp"], at: .root.key("exp"))
        let master = reader.requiredString(members["master"], at: .root.key("master"))
        let subtitles = reader.strings(members["subtitles"], at: .root.key("subtitles"))
        let defaultTrack = reader.string(members["default"], at: .root.key("default"))
        if members["exp"] == nil { reader.report(.root.key("exp"), "is required") }
        if let expiry, !(0...latestExpiry).contains(expiry) { reader.report(.root.key("exp"), "must be unix seconds between 0 and \(latestExpiry)") }
        if let master, !isProxyTarget(master) {
            reader.report(.root.key("master"), "must be a proxy path starting with one \"/\", without spaces, controls or \"#\"")
        }
        if let problem = reader.problems.first {
            return .failure(SignedTokenRefusal(.malformed, "malformed token: \(Sanitized.text("\(problem.path): \(problem.message)", limit: 200))"))
        }
        let tracksPath = ConfigPath.root.key("tracks")
        // The signer named these sources: fetched as signed ones are (never into internal space unless allowed).
        let tracks = SubtitleSetDecoder.trackConfigs(members["tracks"], at: tracksPath, in: &reader).map { track in
            var signed = track
            signed.provenance = .signed
            return signed
        }
        if let problem = reader.problems.first {
            let more = reader.problems.count > 1 ? " (and \(reader.problems.count - 1) more)" : ""
            return .failure(SignedTokenRefusal(.invalidTrack, "invalid track: \(Sanitized.text("\(problem.path): \(problem.message)", limit: 200))\(more)"))
        }
        guard let expiry, let master else { return .failure(SignedTokenRefusal(.malformed, "malformed token")) }
        return .success(SignedToken(keyID: keyID, expiry: expiry, master: master, tracks: tracks, subtitles: subtitles, defaultTrack: defaultTrack))
    }

    /// `/` then anything a request target may carry: not `//` (a network-path reference), no space,
    /// control or `#` (RFC 9112 §3.2: the origin-form has no fragment).
    static func isProxyTarget(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "/"), bytes.count < 2 || bytes[1] != UInt8(ascii: "/") else { return false }
        return !bytes.contains { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "#") }
    }
}
