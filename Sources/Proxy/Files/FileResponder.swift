import HTTPServer
import HTTPWire

/// Files of directory mounts, answered on the loop thread from the mount's directory.
struct FileResponder: Sendable {
    /// The directories of directory mounts, held open: files are opened relative to them.
    let mountDirectories: MountDirectories
    /// Points a playlist file's path-absolute URIs at the mount (nil: playlists are served as files).
    var relocation: MasterRelocation? = nil
    /// Playlist files larger than this are served as they are, unread.
    var maxPlaylistBytes = 1 << 20
    /// Relocated playlist files by path and file identity (nil: relocated on every request).
    var relocatedFiles: MemoryCache<RelocatedFile>? = nil

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
        // Accept-Ranges on a relocated playlist too: `ByteRangeRequest` would add it to any 200 it can slice.
        let (headers, isPlaylist) = MediaType.fileFields(path)
        do {
            if isPlaylist, let playlist = try relocatedPlaylist(file, path: path, mount: mount) {
                return RouteResponse(route: .file, response: HTTPResponse(status: .ok, headers: headers, bytes: playlist))
            }
        } catch {
            // The file was just opened and is regular: a failed read is the disk's, not the player's.
            return RouteResponse(route: .error, response: .makeError(.internalServerError, "playlist file unreadable (\(error))"))
        }
        let body = HTTPFileRegion(file: file, offset: 0, length: file.size).map(HTTPBody.file) ?? .empty
        return RouteResponse(route: .file, response: HTTPResponse(status: .ok, headers: headers, body: body))
    }

    /// A media playlist on a directory mount with its URIs pointed at the proxy, as an http mount's are
    /// (RFC 8216 §4.1: a player resolves `/seg1.ts` against the proxy's root, where nothing is, so it
    /// becomes `/<mount>/seg1.ts`; absolute URIs under a mount's origin go through that mount), for a
    /// file whose extension names a playlist. Nil when relocation is off, the file is larger than
    /// `maxPlaylistBytes`, or it needs no change: then the file is sent as it is. A small regular file,
    /// read on the loop thread like the open and fstat before it; throws when the read fails. Kept in
    /// `relocatedFiles` while the fstat's identity is the same, so a played playlist is opened and
    /// fstat'ed per request, not read and relocated.
    private func relocatedPlaylist(_ file: HTTPFile, path: String, mount: Mount?) throws(HTTPServerError) -> [UInt8]? {
        guard let relocation, file.size <= maxPlaylistBytes else { return nil }
        let key = relocatedFiles.map { _ in RelocatedFile.key(path: path, mount: mount, identity: file.identity) }
        if let key, let kept = relocatedFiles?.value(for: key) { return kept.bytes }
        // Its size and one byte more, which tells a file that grew since the fstat: read again up to the limit.
        var bytes = try file.read(upTo: file.size + 1)
        let grew = bytes.count > file.size
        if grew { bytes = try file.read(upTo: maxPlaylistBytes + 1) }
        guard bytes.count <= maxPlaylistBytes else { return nil }
        let url = FileConfinement.fileURL(path: path)
        let relocated = relocation.proxyingAbsoluteURIs(bytes, mount: mount, requestedURL: url, finalURL: url)
        let answer: RelocatedFile = relocated == bytes ? .unchanged : .relocated(relocated)
        // Only bytes that match the fstat's size are kept under its identity: a file written meanwhile is not.
        if let key, !grew, bytes.count == file.size {
            relocatedFiles?.store(answer, for: key, cost: answer.cost(key: key), ttl: RelocatedFile.keptFor)
        }
        return answer.bytes
    }
}
