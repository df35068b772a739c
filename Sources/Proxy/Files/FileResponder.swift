import HTTPServer
import HTTPWire

/// Files of directory mounts, answered on the loop thread from the mount's directory.
struct FileResponder: Sendable {
    /// The directories of directory mounts, held open: files are opened relative to them.
    let mountDirectories: MountDirectories

    /// Serves a file from a directory mount (a 302 to a local path would mean nothing to a player). The
    /// body is sent with sendfile from the page cache, so it is answered on the loop thread: the open is
    /// relative to the mount's directory descriptor and non-blocking (a FIFO cannot hold the loop), and
    /// only a regular file is served. Range is applied by `finish` on the file region.
    func serve(_ path: String, mount: Mount?) -> RouteResponse {
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
            return RouteResponse(route: .error, response: .makeError(error.status, error.reason))
        }
        var headers = HTTPHeaders()
        headers[.contentType] = MediaType.forPath(path)
        headers[.cacheControl] = "max-age=60"
        headers[.acceptRanges] = "bytes"
        let body = HTTPFileRegion(file: file, offset: 0, length: file.size).map(HTTPBody.file) ?? .empty
        return RouteResponse(route: .file, response: HTTPResponse(status: .ok, headers: headers, body: body))
    }
}
