import Foundation
import HTTPServer

/// Keeps directory mounts inside their root: no `..`, no encoded slashes or NUL, no symlinks out.
enum FileConfinement {
    /// The absolute path for a mount-relative raw (percent-encoded) path, or a 403/400 if it would leave the root.
    static func confinedPath(root: String, rawRelativePath: String) throws(ProxyError) -> String {
        switch plainReading(rawRelativePath.utf8.span) {
        case .plain:
            // Joined as bytes in one sized buffer: three `String.append`s cost about 950 instructions a
            // file request (each one a `write` through string interpolation), this about a third of that.
            var path: [UInt8] = []
            path.reserveCapacity(root.utf8.count + 1 + rawRelativePath.utf8.count)
            path.append(contentsOf: root.utf8)
            path.append(UInt8(ascii: "/"))
            path.append(contentsOf: rawRelativePath.utf8)
            return String(decoding: path, as: UTF8.self)
        case .leaves: throw .forbidden("path leaves the mount")
        case .needsDecoding: return try decodedConfinedPath(root: root, rawRelativePath: rawRelativePath)
        }
    }

    /// `confinedPath`'s general reading: each segment percent-decoded, "." and empty ones dropped.
    static func decodedConfinedPath(root: String, rawRelativePath: String) throws(ProxyError) -> String {
        var parts: [String] = []
        // Split by bytes, as the one-pass reading and the kernel read a path.
        for rawSegment in rawRelativePath.slashSegments() where !rawSegment.isEmpty {
            let segment = try PathDecoding.decodeSegment(rawSegment)
            if segment == "." { continue }
            // Bytes, not `contains("/")`: with Foundation imported that is its `range(of:)` (a quarter of
            // a file request's instructions, bench/README.md).
            guard segment != "..", !segment.containsUTF8(UInt8(ascii: "/")), !segment.containsUTF8(UInt8(ascii: "\\")) else {
                throw .forbidden("path leaves the mount")
            }
            parts.append(segment)
        }
        // Inside `root` by construction: no part is "." or ".." or holds a "/" or a backslash, so there is
        // nothing to standardize and compare (`checkInside`'s Foundation URLs cost about a quarter of
        // a file request's instructions).
        var path = parts.isEmpty ? root : root + "/" + parts.joined(separator: "/")
        // A trailing "/" asks for a directory: kept as "/." (a file URL's path drops a bare trailing
        // slash), so "master.m3u8/" is refused as the kernel refuses it rather than served.
        if !parts.isEmpty, rawRelativePath.hasSuffix("/") { path += "/." }
        return path
    }

    /// How `confinedPath` must read a raw relative path, judged in one pass over its bytes.
    enum PlainReading: Equatable {
        /// Non-empty segments with no "%" and none that is "." alone: the path is its own decoded,
        /// confined form below the root, as the general reading would join it.
        case plain
        /// A raw ".." segment or a backslash before any "%": refused, as the general reading refuses it
        /// at that segment (after an escape, a malformed one may be the error that comes first).
        case leaves
        /// Anything else (escapes, "." or empty segments, a trailing "/", nothing at all): the general reading.
        case needsDecoding
    }

    /// The reading of `path` (see `PlainReading`); every directory-mount request passes here. A segment
    /// is judged when it ends, as the general reading decodes it whole before looking at it.
    static func plainReading(_ path: Span<UInt8>) -> PlainReading {
        guard !path.isEmpty else { return .needsDecoding }
        var plain = true
        var escaped = false
        var segmentLength = 0
        var dots = 0
        var backslash = false
        // After the last byte, one more turn ends the last segment.
        for index in 0...path.count {
            let byte = index < path.count ? path[index] : UInt8(ascii: "/")
            if byte == UInt8(ascii: "/") {
                if backslash || (dots == 2 && segmentLength == 2) { return escaped ? .needsDecoding : .leaves }
                if segmentLength == 0 || (dots == 1 && segmentLength == 1) { plain = false }
                segmentLength = 0
                dots = 0
                continue
            }
            if byte == UInt8(ascii: "\\") { backslash = true }
            if byte == UInt8(ascii: "%") { escaped = true }
            if byte == UInt8(ascii: ".") { dots += 1 }
            segmentLength += 1
        }
        return plain && !escaped ? .plain : .needsDecoding
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
    /// Compared by bytes, as the file system compares names (every directory-mount request passes here).
    static func relativePath(_ path: String, root: String) -> String? {
        let pathBytes = path.utf8.span
        let rootBytes = root.utf8.span
        if pathBytes.count == rootBytes.count, Self.starts(pathBytes, with: rootBytes) { return "" }
        // The root and a "/" after it, unless the root ends with one.
        let rootEndsWithSlash = rootBytes.count > 0 && rootBytes[rootBytes.count - 1] == UInt8(ascii: "/")
        let prefixLength = rootEndsWithSlash ? rootBytes.count : rootBytes.count + 1
        guard pathBytes.count >= prefixLength, Self.starts(pathBytes, with: rootBytes),
              rootEndsWithSlash || pathBytes[rootBytes.count] == UInt8(ascii: "/") else { return nil }
        let utf8 = path.utf8
        return String(path[utf8.index(utf8.startIndex, offsetBy: prefixLength)...])
    }

    private static func starts(_ bytes: Span<UInt8>, with prefix: Span<UInt8>) -> Bool {
        guard bytes.count >= prefix.count else { return false }
        for index in 0..<prefix.count where bytes[index] != prefix[index] { return false }
        return true
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
    /// A plain path (see `isPlain`) is written as it is, as Foundation writes it, without Foundation
    /// (a per-request cost on directory mounts); any other goes through `URL`.
    static func fileURL(path: String) -> String {
        if isPlain(path.utf8.span) { return fileScheme + path }
        return URL(fileURLWithPath: path).absoluteString
    }

    /// What a plain path's `file://` URL puts before it.
    static let fileScheme = "file://"

    /// The path of a `file://` URL, or nil when it is not one. A plain path after `file://` is taken
    /// as it is (nothing to decode); any other URL is parsed by `URL`.
    static func path(fromFileURL url: String) -> String? {
        let scheme = "file://".utf8
        if url.utf8.starts(with: scheme), isPlain(url.utf8.span.extracting(droppingFirst: scheme.count)) {
            return String(url.utf8.dropFirst(scheme.count))
        }
        guard let parsed = URL(string: url), parsed.isFileURL else { return nil }
        return parsed.path
    }

    /// An absolute path whose URL form is itself: only RFC 3986 unreserved characters and "/" (nothing
    /// to percent-encode, RFC 3986 §2.3), and segments that are neither empty nor dots alone (nothing
    /// for `URL` to standardize, no trailing "/" for it to drop). A test compares both forms with Foundation's.
    static func isPlain(_ path: Span<UInt8>) -> Bool {
        var segmentLength = -1  // -1: before the leading "/"
        var dots = 0
        for index in path.indices {
            let byte = path[index]
            if byte == UInt8(ascii: "/") {
                guard segmentLength < 0 || dots < segmentLength else { return false }
                segmentLength = 0
                dots = 0
                continue
            }
            guard segmentLength >= 0 else { return false }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                break
            case UInt8(ascii: "."):
                dots += 1
            default:
                return false
            }
            segmentLength += 1
        }
        return dots < segmentLength
    }

    private static func isInside(_ path: String, root: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }
}
