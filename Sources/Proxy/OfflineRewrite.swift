import HLS

/// The `rewrite` subcommand: the master at a proxy URL, rewritten exactly as the running proxy would.
public enum OfflineRewrite {
    /// Rewrites `master` as served at `proxyURL` (for example `http://127.0.0.1:8080/sample/master.m3u8`).
    public static func rewrite(_ master: [UInt8], proxyURL: String, config: ProxyConfig) throws(ProxyError) -> [UInt8] {
        guard let target = proxyTarget(of: proxyURL) else {
            throw .badRequest("--url must be an http(s) proxy URL such as http://127.0.0.1:8080/sample/master.m3u8")
        }
        let router = RequestRouter(config: config)
        guard case .origin(let origin) = try router.route(rawPath: target.path, query: target.query) else {
            throw .notFound("\(target.path) is not a mount or embedded URL")
        }
        guard let set = config.subtitleSets.first(where: { $0.claims(origin.proxyPath) }) else {
            throw .notFound("no subtitle set matches \(origin.proxyPath)")
        }
        do {
            return try set.rewrite(master, masterTarget: origin.proxyTarget)
        } catch {
            throw .badRequest("input is not a master playlist (\(error))")
        }
    }

    /// Splits `http://host:port/path?query` into raw path and query.
    static func proxyTarget(of url: String) -> (path: String, query: String?)? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let afterScheme = url[schemeEnd.upperBound...]
        guard let slash = afterScheme.firstIndex(of: "/") else { return ("/", nil) }
        var target = afterScheme[slash...]
        if let hash = target.firstIndex(of: "#") { target = target[..<hash] }
        return splitTarget(target)
    }
}
