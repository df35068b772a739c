/// `hls-subtitle-proxy sign`: a signed playback path for a master and tracks, checked exactly as the
/// proxy will check it when it is played (the verifier runs on the token made), so it never prints a
/// URL the proxy would refuse.
public enum SignCommand {
    /// Why no path was printed: `status` 2 for a usage error (the key id), 1 for what the input says.
    public struct Failure: Error, Equatable, Sendable {
        public var status: Int32
        public var messages: [String]
    }

    /// The playback path for `request`, its tracks read from `tracksJSON`, expiring `request.expiresIn`
    /// seconds after `now` (unix seconds).
    public static func playbackPath(
        _ request: CommandLineOptions.SignRequest, tracksJSON: [UInt8], config: ProxyConfig, now: Int64
    ) -> Result<String, Failure> {
        let signing = config.signing
        guard signing.isEnabled else {
            return .failure(Failure(status: 1, messages: ["the config has no signing.keys: add one (docs/signing.md)"]))
        }
        let keyID: String
        if let given = request.keyID {
            guard signing.keys[given] != nil else {
                let known = signing.keys.keys.sorted().joined(separator: ", ")
                return .failure(Failure(status: 2, messages: ["--key-id \(Sanitized.text(given)) is not in signing.keys (configured: \(known))"]))
            }
            keyID = given
        } else {
            guard signing.keys.count == 1, let only = signing.keys.keys.first else {
                let known = signing.keys.keys.sorted().joined(separator: ", ")
                return .failure(Failure(status: 2, messages: ["--key-id is required: signing.keys has several keys (\(known))"]))
            }
            keyID = only
        }
        let tracks: [ConfigValue]
        switch ConfigValue.parse(tracksJSON) {
        case .failure(let error):
            return .failure(Failure(status: 1, messages: error.problems.map { "tracks: \($0)" }))
        case .success(.array(let elements)):
            tracks = elements
        case .success(.object(let members)) where members.count == 1 && members["tracks"] != nil:
            guard case .array(let elements)? = members["tracks"] else {
                return .failure(Failure(status: 1, messages: ["tracks: \"tracks\" must be an array of track objects"]))
            }
            tracks = elements
        case .success:
            return .failure(Failure(status: 1, messages: ["tracks: expected a JSON array of track objects, or {\"tracks\": [...]}"]))
        }
        // Track problems are reported in full here, by field path, before any token is made.
        var reader = ConfigReader(environment: [:])
        _ = SubtitleSetDecoder.trackConfigs(.array(tracks), at: ConfigPath.root.key("tracks"), in: &reader)
        if let error = reader.error { return .failure(Failure(status: 1, messages: error.problems)) }
        // A token's `exp` ends at year 9999 (SignedPayloadDecoder.latestExpiry): a later one is the flag's
        // mistake, a usage error like any other bad --expires-in, not a problem with the input.
        let (expiry, overflow) = now.addingReportingOverflow(request.expiresIn)
        guard !overflow, expiry <= SignedPayloadDecoder.latestExpiry else {
            return .failure(Failure(status: 2, messages: [
                "--expires-in \(request.expiresIn): the expiry would be after the end of year 9999"
                    + " (unix \(SignedPayloadDecoder.latestExpiry)), the latest a token may carry",
            ]))
        }
        let payload = SignedTokenSigner.payload(
            expiry: expiry, master: request.master, tracks: tracks, subtitles: request.subtitles, defaultTrack: request.defaultTrack)
        guard let key = signing.keys[keyID] else { return .failure(Failure(status: 2, messages: ["unknown key id"])) }
        let token = SignedTokenSigner.token(keyID: keyID, key: key, payload: payload)
        let responder = SignedResponder(
            config: config, router: RequestRouter(config: config), metrics: ProxyMetrics(), logger: .silent,
            clock: { now })
        do {
            _ = try responder.verified(SignedURL(token: token, resource: .master))
        } catch {
            return .failure(Failure(status: 1, messages: [error.reason]))
        }
        return .success(SignedURL.path(token: token, resource: .master))
    }
}
