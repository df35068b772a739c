import HTTPServer

extension MasterResponder: Responder {
    typealias Target = ClaimedMaster

    init(context: ResponderContext) {
        self.init(
            config: context.config, router: context.router, fetcher: context.fetcher, resolver: context.tracks,
            rewritten: context.caches.rewritten, logger: context.logger,
            cacheControl: "max-age=\(ConfigSeconds.maxAge(context.config.cache.masterTTL))")
    }

    func serve(_ claim: ClaimedMaster, request: HTTPRequest) async throws -> RouteResponse {
        try await serve(claim.target, set: config.subtitleSets[claim.setIndex], request: request)
    }

    /// A rewritten master already in the cache. A miss is not counted here: `serve` looks again and counts it.
    func immediate(_ claim: ClaimedMaster, request: HTTPRequest) -> RouteResponse? {
        cachedMaster(claim.target, set: config.subtitleSets[claim.setIndex], request: request, countingMiss: false)
    }
}
