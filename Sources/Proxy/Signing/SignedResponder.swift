import HTTPServer
import HTTPWire

/// Answers the signed playback URLs (`SignedURL`): verifies the token, refuses with 403 and a one-line
/// reason (counted by reason), and otherwise serves the master or subtitle the token describes.
struct SignedResponder: Sendable {
    let verifier: SignedTokenVerifier
    let graceSeconds: Int64
    let router: RequestRouter
    let metrics: ProxyMetrics
    let logger: ProxyLogger
    /// Unix seconds now; tests pass their own clock.
    let clock: @Sendable () -> Int64
    /// The shared serving of masters and subtitles; nil where only verification is wanted (`SignedURLChecking`).
    let masters: MasterResponder?
    let subtitles: SubtitleResponder?
    let config: ProxyConfig
    /// Tokens already verified, so each is MAC-checked and decoded once (its expiry still every time).
    let verifiedTokens: VerifiedTokenCache

    init(config: ProxyConfig, router: RequestRouter, metrics: ProxyMetrics, logger: ProxyLogger,
         masters: MasterResponder? = nil, subtitles: SubtitleResponder? = nil,
         clock: @escaping @Sendable () -> Int64 = { WallClockTime.currentSecond() }) {
        self.verifier = SignedTokenVerifier(signing: config.signing)
        self.graceSeconds = config.signing.graceSeconds
        self.router = router
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
        self.masters = masters
        self.subtitles = subtitles
        self.config = config
        self.verifiedTokens = VerifiedTokenCache()
    }

    /// A verified request: the token, its master's target and, for a subtitle URL, its track.
    struct Verified: Sendable {
        var token: SignedToken
        var master: OriginTarget
        var track: TrackConfig?
    }

    /// A verified URL served as a configured master and its subtitles are: the token's master fetched
    /// through its own route (mount or embedded form, so allowlists and confinement apply) and rewritten
    /// with the token's tracks, its choices applied; its subtitle URIs carry the token, its variant and
    /// other URIs point at the master's own proxy path. The rewritten master is kept under the token
    /// (and the request's own choices), never shared with the plain master's entry.
    func serve(_ url: SignedURL, request: HTTPRequest) async throws -> RouteResponse {
        let verified = try verified(url)
        guard let masters, let subtitles else { throw ProxyError(.notImplemented, "signed playback is only verified here") }
        let set = SignedPlayback.subtitleSet(for: verified.master, config: config)
        switch url.resource {
        case .master:
            let token = url.token
            let qualifier = SignedPlayback.cacheQualifier(token: token, query: url.query)
            // As the plain master path does: a cached rewrite spares the optional tracks' probes; a miss
            // is counted once, by the check in the serve below.
            if let cached = masters.cachedMaster(verified.master, cacheQualifier: qualifier, request: request, countingMiss: false) {
                return cached
            }
            let listed = SignedPlayback.listedTracks(verified.token, query: url.query)
            let present = try await masters.resolver.droppingAbsentOptionalTracks(listed, set: set, master: verified.master, request: request)
            return try await masters.serve(
                verified.master, set: set, tracks: ResolvedTracks(tracks: present),
                subtitleURI: { SignedURL.path(token: token, resource: .subtitle(trackID: $0.id, .playlist)) },
                cacheQualifier: qualifier, request: request, answeredElsewhere: true)
        case .subtitle(_, let resource):
            guard let track = verified.track else { throw ProxyError.notFound("the signed token has no such track") }
            return try await subtitles.serve(resource, set: set, track: track, master: verified.master, request: request)
        }
    }

    /// The token checked for this URL, a refusal counted and answered 403, a track the token lacks 404.
    func verified(_ url: SignedURL) throws(ProxyError) -> Verified {
        switch verification(url) {
        case .failure(let refusal):
            metrics.recordSignedRefusal(reason: refusal.reason.rawValue)
            logger.debug("signed URL refused", [("reason", refusal.reason.rawValue), ("detail", refusal.detail)])
            throw ProxyError(.forbidden, refusal.message)
        case .success(var verified):
            guard case .subtitle(let trackID, _) = url.resource else { return verified }
            // Among the tracks its master lists (the payload's `subtitles` applied), as for configured sets.
            guard let track = SignedPlayback.listedTracks(verified.token, query: nil).first(where: { $0.id == trackID }) else {
                throw ProxyError(.notFound, "the signed token has no track \"\(trackID)\"")
            }
            verified.track = track
            return verified
        }
    }

    /// The token checked for this URL: strictly before its expiry for the master, until expiry plus
    /// `signing.grace_seconds` for its subtitles (a film started before expiry plays to its end); then
    /// its subtitle URLs must fit a request line and its master must be a path this proxy serves.
    /// All but the expiry is worked out once per token (`verifiedTokens`); the expiry every time.
    func verification(_ url: SignedURL) -> Result<Verified, SignedTokenRefusal> {
        let isMaster = url.resource == .master
        return verifiedTokens.verified(url.token) {
            verifier.authenticate(url.token).flatMap { token -> Result<Verified, SignedTokenRefusal> in
                if let tooLong = SignedPlayback.subtitleURLsFit(token: url.token, tracks: token.tracks) { return .failure(tooLong) }
                return SignedPlayback.masterTarget(token.master, router: router).map { Verified(token: token, master: $0, track: nil) }
            }
        }.flatMap { verified in
            SignedTokenVerifier.checkExpiry(verified.token, now: clock(), graceSeconds: isMaster ? 0 : graceSeconds).map { verified }
        }
    }
}
