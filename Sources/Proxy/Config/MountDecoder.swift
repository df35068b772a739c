import Foundation
import HTTPWire

/// The `mounts` section: each mount's origin, segment mode and header lists, problems reported to the reader.
struct MountDecoder {
    /// What relative directory origins resolve against: the config file's directory.
    let baseDirectory: String

    /// Mounts from the `mounts` object, sorted by name; invalid ones are reported and left out.
    func mounts(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> [Mount] {
        guard let members = reader.anyObject(value, at: path) else { return [] }
        var mounts: [Mount] = []
        for name in members.keys.sorted() {
            let mountPath = path.key(name)
            if !ConfigReader.isURLSafeName(name) {
                reader.report(mountPath, "mount name \(ConfigReader.quoted(name)) must be letters, digits, '-' and '_'")
            } else if Mount.reservedNames.contains(ConfigReader.asciiLowercased(name)) {
                reader.report(mountPath, "mount name \(ConfigReader.quoted(name)) is reserved for the proxy's own paths")
            }
            if let mount = mount(members[name], named: name, at: mountPath, in: &reader) {
                mounts.append(mount)
            }
        }
        return mounts
    }

    private func mount(_ value: ConfigValue?, named name: String, at path: ConfigPath, in reader: inout ConfigReader)
        -> Mount?
    {
        let keys: Set<String> = ["origin", "segments", "inject_headers", "forward_headers"]
        guard let members = reader.object(value, at: path, keys: keys) else {
            if value == nil || value == .null { reader.report(path, "expected an object, got null") }
            return nil
        }
        let originText = reader.requiredString(members["origin"], at: path.key("origin"))
        let origin = originText.flatMap { self.origin($0, at: path.key("origin"), in: &reader) }
        let segments: Mount.SegmentMode? = reader.choice(members["segments"], at: path.key("segments"))
        if case .directory? = origin, segments == .redirect {
            reader.report(path.key("segments"), "a directory origin cannot be redirected to; use \"proxy\" or leave it out")
        }
        let injectHeaders = Self.injectHeaders(members["inject_headers"], at: path.key("inject_headers"), in: &reader)
        let forwardHeaders = Self.forwardHeaders(members["forward_headers"], at: path.key("forward_headers"), in: &reader)
        guard let origin else { return nil }
        return Mount(
            name: name, origin: origin, segments: segments, injectHeaders: injectHeaders, forwardHeaders: forwardHeaders)
    }

    /// An http(s) base URL, a `file:` URL, or a directory path (relative ones resolve against `baseDirectory`).
    private func origin(_ text: String, at path: ConfigPath, in reader: inout ConfigReader) -> Mount.Origin? {
        let lowered = ConfigReader.asciiLowercased(text)
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            switch ConfigReader.httpURLParts(text) {
            case .failure(let problem):
                reader.report(path, "\(ConfigReader.quoted(text)) \(problem.message)")
                return nil
            case .success(var parts):
                // The request path is appended after a '/', so a trailing one would double it.
                while parts.path.hasSuffix("/") { parts.path.removeLast() }
                return .http(baseURL: parts.normalized)
            }
        }
        let directory: String
        if lowered.hasPrefix("file:") {
            guard let filePath = ConfigReader.filePath(fromFileURL: text) else {
                reader.report(path, "\(ConfigReader.quoted(text)) is not a local file: URL (file:///absolute/path)")
                return nil
            }
            directory = ConfigReader.standardizedPath(filePath, relativeTo: "/")
        } else if text.contains("://") || text.isEmpty {
            reader.report(path, "\(ConfigReader.quoted(text)) is neither an http(s) URL nor a directory")
            return nil
        } else {
            directory = ConfigReader.standardizedPath(text, relativeTo: baseDirectory)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            reader.report(path, "directory \(ConfigReader.quoted(directory)) does not exist")
            return nil
        }
        return .directory(path: directory)
    }

    /// Header name -> value pairs sent to one origin (`inject_headers`, and a subtitle set's `tracks_headers`).
    static func injectHeaders(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> [Mount.Header] {
        guard let members = reader.anyObject(value, at: path) else { return [] }
        var headers: [Mount.Header] = []
        var seen: Set<String> = []
        for name in members.keys.sorted() {
            let headerPath = path.key(name)
            guard checkHeaderName(name, at: headerPath, forbidden: framingHeaders, seen: &seen, in: &reader),
                let value = reader.string(members[name], at: headerPath)
            else { continue }
            // Values are never echoed: they often hold secrets expanded from the environment.
            guard ConfigReader.isFieldValue(value) else {
                reader.report(headerPath, "header value contains control characters")
                continue
            }
            headers.append(Mount.Header(name: name, value: value))
        }
        return headers
    }

    private static func forwardHeaders(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> [String] {
        guard let elements = reader.array(value, at: path) else { return [] }
        var names: [String] = []
        var seen: Set<String> = []
        for (index, element) in elements.enumerated() {
            let elementPath = path.index(index)
            guard let name = reader.string(element, at: elementPath),
                checkHeaderName(name, at: elementPath, forbidden: framingHeaders.union([lowercased(.host)]), seen: &seen, in: &reader)
            else { continue }
            names.append(name)
        }
        return names
    }

    /// Reports a name that is not an RFC 9110 token, is hop-by-hop or framing, or repeats (case-insensitively).
    private static func checkHeaderName(
        _ name: String, at path: ConfigPath, forbidden: Set<String>, seen: inout Set<String>, in reader: inout ConfigReader
    ) -> Bool
    {
        let lowered = ConfigReader.asciiLowercased(name)
        if !ConfigReader.isToken(name) {
            reader.report(path, "header name \(ConfigReader.quoted(name)) is not an RFC 9110 token")
        } else if forbidden.contains(lowered) {
            reader.report(path, "header \(name) is managed by the proxy per connection and cannot be set here")
        } else if !seen.insert(lowered).inserted {
            reader.report(path, "header \(name) is listed twice (header names are case-insensitive)")
        } else {
            return true
        }
        return false
    }

    /// RFC 9110 §7.6.1 hop-by-hop fields and the body framing fields: each hop sets its own.
    private static let framingHeaders: Set<String> = Set(
        [
            HTTPFieldName.connection, .keepAlive, .proxyConnection, .te, .trailer, .transferEncoding, .upgrade,
            .contentLength,
        ].map(lowercased))

    /// Names compare case-insensitively (RFC 9110 §5.1), so the sets hold the lowercase form.
    private static func lowercased(_ name: HTTPFieldName) -> String {
        ConfigReader.asciiLowercased(name.text)
    }
}
