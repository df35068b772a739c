import Foundation
import HTTPServer

/// Keeps directory mounts inside their root: no `..`, no encoded slashes or NUL, no symlinks out.
enum FileConfinement {
    /// The absolute path for a mount-relative raw (percent-encoded) path, or a 403/400 if it would leave the root.
    static func confinedPath(root: String, rawRelativePath: String) throws(ProxyError) -> String {
        var parts: [String] = []
        for rawSegment in rawRelativePath.split(separator: "/", omittingEmptySubsequences: true) {
            let segment = try PathDecoding.decodeSegment(rawSegment)
            if segment == "." { continue }
            guard segment != "..", !segment.contains("/"), !segment.contains("\\") else {
                throw .forbidden("path leaves the mount")
            }
            parts.append(segment)
        }
        var path = parts.isEmpty ? root : root + "/" + parts.joined(separator: "/")
        try checkInside(root: root, path: path)
        // A trailing "/" asks for a directory: kept as "/." (a file URL's path drops a bare trailing
        // slash), so "master.m3u8/" is refused as the kernel refuses it rather than served.
        if !parts.isEmpty, rawRelativePath.hasSuffix("/") { path += "/." }
        return path
    }

    /// Refuses a path that names a place outside `root` once its `.` and `..` are removed. Only what the
    /// path says: symlinks are not looked at here (checking them by name, then opening by name, loses
    /// to a swap in between). Files are opened relative to the mount's directory descriptor
    /// (`ConfinedDirectory`), which is what keeps symlinks and renames inside.
    static func checkInside(root: String, path: String) throws(ProxyError) {
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        guard isInside(standardized, root: URL(fileURLWithPath: root).standardizedFileURL.path) else {
            throw .forbidden("path leaves the mount")
        }
    }

    /// The part of `path` below `root` ("" for the root itself), or nil when `path` is not below it.
    static func relativePath(_ path: String, root: String) -> String? {
        if path == root { return "" }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard path.hasPrefix(prefix) else { return nil }
        return String(path.dropFirst(prefix.count))
    }

    /// Opens the regular file at the absolute `path` through the mount directory `directory`: nothing
    /// outside it can be reached, whatever the path's symlinks say or do meanwhile. 404 for nothing
    /// there, 403 for a path that leaves the mount or names something other than a regular file.
    static func openFile(_ path: String, in directory: ConfinedDirectory) throws(ProxyError) -> HTTPFile {
        guard let relative = relativePath(path, root: directory.path) else { throw .forbidden("path leaves the mount") }
        do {
            return try directory.openFile(relative)
        } catch {
            if error.isNoSuchFile { throw .notFound("file not found") }
            if error.isOutsideDirectory { throw .forbidden("path leaves the mount") }
            if error.isNotRegularFile { throw .forbidden("not a regular file") }
            throw .forbidden("file not readable")
        }
    }

    /// A `file://` URL for an absolute path, percent-encoded so that relative references resolve against it.
    static func fileURL(path: String) -> String {
        URL(fileURLWithPath: path).absoluteString
    }

    /// The path of a `file://` URL, or nil when it is not one.
    static func path(fromFileURL url: String) -> String? {
        guard let parsed = URL(string: url), parsed.isFileURL else { return nil }
        return parsed.path
    }

    private static func isInside(_ path: String, root: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }
}
