/// What routing makes of a request path, as plain values: the public face of `RequestRouter` for the
/// path fuzz target (fuzz/Sources/FuzzPath), which checks that no accepted path can climb out of its
/// mount at any origin.
public struct PathRouting: Sendable {
    /// Where a path goes.
    public enum Outcome: Sendable, Equatable {
        /// An origin URL (also the Location of a redirect) under `base`: the mount's base URL, or
        /// `scheme://authority` for the embedded form (whose `mount` is nil).
        case origin(url: String, base: String, mount: String?, proxyTarget: String)
        /// A directory mount's file, or a route the proxy answers itself.
        case local
        /// Refused with this status.
        case refused(status: Int)
    }

    private let router: RequestRouter

    /// Routes as a proxy with `config` would.
    public init(config: ProxyConfig) {
        router = RequestRouter(config: config)
    }

    /// Routes a raw (still percent-encoded) path and query, as the request line carried them.
    public func route(rawPath: String, query: String?) -> Outcome {
        let route: RequestRouter.Route
        do {
            route = try router.route(rawPath: rawPath, query: query)
        } catch {
            return .refused(status: error.status.code)
        }
        guard case .origin(let target) = route else { return .local }
        switch target.mount?.origin {
        case .http(let base):
            return .origin(url: target.url, base: base, mount: target.mount?.name, proxyTarget: target.proxyTarget)
        case .directory:
            return .local
        case nil:
            let url = target.url
            // By bytes, as the router splits: a combining mark after the "/" must not hide it.
            let authorityEnd = url.range(of: "://").flatMap { url[$0.upperBound...].utf8.firstIndex(of: UInt8(ascii: "/")) } ?? url.endIndex
            return .origin(url: url, base: String(url[..<authorityEnd]), mount: nil, proxyTarget: target.proxyTarget)
        }
    }
}
