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

    init(config: ProxyConfig, router: RequestRouter, metrics: ProxyMetrics, logger: ProxyLogger,
         clock: @escaping @Sendable () -> Int64 = { WallClockTime.currentSecond() }) {
        self.verifier = SignedTokenVerifier(signing: config.signing)
        self.graceSeconds = config.signing.graceSeconds
        self.router = router
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
    }

    /// A verified request: the token, its master's target and, for a subtitle URL, its track.
    struct Verified: Sendable {
        var token: SignedToken
        var master: OriginTarget
        var track: TrackConfig?
    }

    func serve(_ url: SignedURL, request: HTTPRequest) async throws -> RouteResponse {
        _ = try verified(url)
        // Verified; serving goes through the shared track resolution, which is wired in separately.
        throw ProxyError(.notImplemented, "signed playback not wired")
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
            guard let track = verified.token.tracks.first(where: { $0.id == trackID }) else {
                throw ProxyError(.notFound, "the signed token has no track \"\(trackID)\"")
            }
            verified.track = track
            return verified
        }
    }

    /// The token checked for this URL: strictly before its expiry for the master, until expiry plus
    /// `signing.grace_seconds` for its subtitles (a film started before expiry plays to its end); then
    /// its subtitle URLs must fit a request line and its master must be a path this proxy serves.
    func verification(_ url: SignedURL) -> Result<Verified, SignedTokenRefusal> {
        let isMaster = url.resource == .master
        return verifier.verify(url.token, now: clock(), graceSeconds: isMaster ? 0 : graceSeconds).flatMap {
            token -> Result<Verified, SignedTokenRefusal> in
            if let tooLong = SignedPlayback.subtitleURLsFit(token: url.token, tracks: token.tracks) { return .failure(tooLong) }
            return SignedPlayback.masterTarget(token.master, router: router).map { Verified(token: token, master: $0, track: nil) }
        }
    }
}
