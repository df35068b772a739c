import HTTPServer

extension ProxyHandler {
    /// Serves a file from a directory mount (a 302 to a local path would mean nothing to a player). The
    /// body is sent with sendfile from the page cache, so it is answered on the loop thread: opening a
    /// file costs no more than routing. Range is applied by `finish` on the file region.
    func serveFile(_ path: String) -> RouteResponse {
        let file: HTTPFile
        do {
            file = try HTTPFile(path: path)
        } catch {
            // Nothing there: 404; anything else (a directory, no permission): refused.
            return RouteResponse(route: .error, response: error.isNoSuchFile
                ? Self.errorResponse(.notFound, "file not found") : Self.errorResponse(.forbidden, "file not readable"))
        }
        var headers = HTTPHeaders()
        headers["Content-Type"] = Self.contentType(forPath: path)
        headers["Cache-Control"] = "max-age=60"
        headers["Accept-Ranges"] = "bytes"
        let body = HTTPFileRegion(file: file, offset: 0, length: file.size).map(HTTPBody.file) ?? .empty
        return RouteResponse(route: .file, response: HTTPResponse(status: .ok, headers: headers, body: body))
    }

    /// Mode `proxy`: streamed through (see `streamThrough`).
    func passThrough(_ target: OriginTarget, request: HTTPRequest) async throws -> RouteResponse {
        try await streamThrough(target, request: request)
    }
}
