/// What the proxy makes of a signed playback URL, as plain values: the public face of routing and
/// `SignedResponder`'s verification for the fuzz target (fuzz/Sources/FuzzSignedToken).
public struct SignedURLChecking: Sendable {
    /// What became of a path.
    public enum Outcome: Sendable, Equatable {
        /// Not a signed URL, or refused by routing with this status.
        case notSigned(status: Int?)
        /// Refused with this status (403, or 404 for a track the token lacks) and metric reason, if any.
        case refused(status: Int, reason: String?)
        /// Verified: the token's master and track ids.
        case verified(master: String, trackIDs: [String])
    }

    private let router: RequestRouter
    private let responder: SignedResponder
    private let signing: ProxyConfig.Signing

    /// Checks as a proxy with `config` would, with the clock at `now` (unix seconds).
    public init(config: ProxyConfig, now: Int64) {
        let router = RequestRouter(config: config)
        self.router = router
        self.signing = config.signing
        self.responder = SignedResponder(config: config, router: router, metrics: ProxyMetrics(), logger: .silent, clock: { now })
    }

    /// Routes and verifies a raw path (still percent-encoded) and query.
    public func check(rawPath: String, query: String?) -> Outcome {
        let url: SignedURL
        do {
            guard case .signed(let signed) = try router.route(rawPath: rawPath, query: query) else { return .notSigned(status: nil) }
            url = signed
        } catch {
            return .notSigned(status: error.status.code)
        }
        switch responder.verification(url) {
        case .failure(let refusal):
            return .refused(status: 403, reason: refusal.reason.rawValue)
        case .success(let verified):
            if case .subtitle(let trackID, _) = url.resource,
               !SignedPlayback.listedTracks(verified.token, query: nil).contains(where: { $0.id == trackID }) {
                return .refused(status: 404, reason: nil)
            }
            return .verified(master: verified.token.master, trackIDs: verified.token.tracks.map(\.id))
        }
    }

    /// A token for `payload` (any bytes) signed with the configured key `keyID`; nil when there is no such key.
    public func token(payload: [UInt8], keyID: String) -> String? {
        guard let key = signing.keys[keyID] else { return nil }
        return SignedTokenSigner.token(keyID: keyID, key: key, payload: payload)
    }

    /// The master path for `token`.
    public static func masterPath(token: String) -> String {
        SignedURL.path(token: token, resource: .master)
    }
}
