import HTTPServer
import HTTPWire

extension ProxyHandler {
    /// Serves a file from a directory mount (a 302 to a local path would mean nothing to a player). The
    /// body is sent with sendfile from the page cache, so it is answered on the loop thread: the open is
    /// relative to the mount's directory descriptor and non-blocking (a FIFO cannot hold the loop), and
    /// only a regular file is served. Range is applied by `finish` on the file region.
    func serveFile(_ path: String, mount: Mount?) -> RouteResponse {
        let file: HTTPFile
        do throws(ProxyError) {
            guard case .directory(let root) = mount?.origin else { throw .forbidden("not a directory mount") }
            let directory: ConfinedDirectory
            do {
                directory = try mountDirectories.directory(root: root)
            } catch {
                throw .notFound("file not found")
            }
            file = try FileConfinement.openFile(path, in: directory)
        } catch {
            return RouteResponse(route: .error, response: Self.errorResponse(error.status, error.reason))
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
