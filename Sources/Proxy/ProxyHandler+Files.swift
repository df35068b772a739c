import Foundation
import HTTPServer

extension ProxyHandler {
    /// Serves a file from a directory mount (a 302 to a local path would mean nothing to a player).
    /// Range is applied by the caller on the whole body.
    func serveFile(_ path: String, request: HTTPRequest) async throws -> RouteResponse {
        let (fetched, _) = try await fetch(
            FileConfinement.fileURL(path: path), kind: "segment", maxBytes: config.limits.maxProxyBodyBytes, mount: nil, request: request)
        var headers = HTTPHeaders()
        headers["Content-Type"] = Self.contentType(forPath: path)
        headers["Cache-Control"] = "max-age=60"
        return RouteResponse(route: "file", response: HTTPResponse(status: .ok, headers: headers, bytes: fetched.body))
    }

    /// Mode `proxy`: fetches the whole body with the mount's headers and hands it on.
    func passThrough(_ target: OriginTarget, request: HTTPRequest) async throws -> RouteResponse {
        var extra = HTTPHeaders()
        if let range = request.headers["Range"] { extra["Range"] = range }
        let (fetched, elapsed) = try await fetch(
            target.url, kind: "segment", maxBytes: config.limits.maxProxyBodyBytes, mount: target.mount, request: request, extraHeaders: extra)
        var headers = HTTPHeaders()
        headers["Content-Type"] = fetched.contentType ?? Self.contentType(forPath: target.proxyPath)
        let status = HTTPStatus(code: fetched.status)
        if fetched.status >= 500 { throw Self.originFailure(fetched.status, what: "resource") }
        return RouteResponse(route: "proxy", response: HTTPResponse(status: status, headers: headers, bytes: fetched.body), originMilliseconds: elapsed)
    }
}
