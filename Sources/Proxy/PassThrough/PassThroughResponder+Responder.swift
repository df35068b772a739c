import HTTPServer

extension PassThroughResponder: Responder {
    typealias Target = OriginTarget

    init(context: ResponderContext) {
        self.init(
            config: context.config, router: context.router, fetcher: context.fetcher,
            diskCache: context.diskCache.map { DiskCacheResponder(cache: $0, fetcher: context.fetcher, logger: context.logger) })
    }

    /// An object stored whole on disk (`storedFile`).
    func immediate(_ target: OriginTarget, request: HTTPRequest) -> RouteResponse? {
        storedFile(target, request: request)
    }
}
