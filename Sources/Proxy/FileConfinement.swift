import Foundation

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
        let path = parts.isEmpty ? root : root + "/" + parts.joined(separator: "/")
        try checkInside(root: root, path: path)
        return path
    }

    /// Refuses a path whose real location (symlinks resolved) is outside the real root.
    static func checkInside(root: String, path: String) throws(ProxyError) {
        let realRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        guard isInside(standardized, root: URL(fileURLWithPath: root).standardizedFileURL.path) else {
            throw .forbidden("path leaves the mount")
        }
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard isInside(real, root: realRoot) else { throw .forbidden("path leaves the mount") }
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
