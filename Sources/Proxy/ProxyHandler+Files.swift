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

    /// Mode `proxy`: streamed through (see `streamThrough`).
    func passThrough(_ target: OriginTarget, request: HTTPRequest) async throws -> RouteResponse {
        try await streamThrough(target, request: request)
    }
}
