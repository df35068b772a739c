import Foundation

extension ConfigReader {
    /// Mounts from the `mounts` object, sorted by name; invalid ones are reported and left out.
    mutating func mounts(_ value: ConfigValue?, at path: ConfigPath, baseDirectory: String) -> [Mount] {
        guard let members = anyObject(value, at: path) else { return [] }
        var mounts: [Mount] = []
        for name in members.keys.sorted() {
            let mountPath = path.key(name)
            if !Self.isURLSafeName(name) {
                report(mountPath, "mount name \(Self.quoted(name)) must be letters, digits, '-' and '_'")
            } else if Mount.reservedNames.contains(Self.asciiLowercased(name)) {
                report(mountPath, "mount name \(Self.quoted(name)) is reserved for the proxy's own paths")
            }
            if let mount = mount(members[name], named: name, at: mountPath, baseDirectory: baseDirectory) {
                mounts.append(mount)
            }
        }
        return mounts
    }

    private mutating func mount(_ value: ConfigValue?, named name: String, at path: ConfigPath, baseDirectory: String)
        -> Mount?
    {
        let keys: Set<String> = ["origin", "segments", "inject_headers", "forward_headers"]
        guard let members = object(value, at: path, keys: keys) else {
            if value == nil || value == .null { report(path, "expected an object, got null") }
            return nil
        }
        let origin = requiredString(members["origin"], at: path.key("origin")).flatMap {
            self.origin($0, at: path.key("origin"), baseDirectory: baseDirectory)
        }
        let segments: Mount.SegmentMode? = choice(members["segments"], at: path.key("segments"))
        if case .directory? = origin, segments == .redirect {
            report(path.key("segments"), "a directory origin cannot be redirected to; use \"proxy\" or leave it out")
        }
        let injectHeaders = injectHeaders(members["inject_headers"], at: path.key("inject_headers"))
        let forwardHeaders = forwardHeaders(members["forward_headers"], at: path.key("forward_headers"))
        guard let origin else { return nil }
        return Mount(
            name: name, origin: origin, segments: segments, injectHeaders: injectHeaders, forwardHeaders: forwardHeaders)
    }

    /// An http(s) base URL, a `file:` URL, or a directory path (relative ones resolve against `baseDirectory`).
    private mutating func origin(_ text: String, at path: ConfigPath, baseDirectory: String) -> Mount.Origin? {
        let lowered = Self.asciiLowercased(text)
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            switch Self.httpURLParts(text) {
            case .failure(let problem):
                report(path, "\(Self.quoted(text)) \(problem.message)")
                return nil
            case .success(var parts):
                // The request path is appended after a '/', so a trailing one would double it.
                while parts.path.hasSuffix("/") { parts.path.removeLast() }
                return .http(baseURL: parts.normalized)
            }
        }
        let directory: String
        if lowered.hasPrefix("file:") {
            guard let filePath = Self.filePath(fromFileURL: text) else {
                report(path, "\(Self.quoted(text)) is not a local file: URL (file:///absolute/path)")
                return nil
            }
            directory = Self.standardizedPath(filePath, relativeTo: "/")
        } else if text.contains("://") || text.isEmpty {
            report(path, "\(Self.quoted(text)) is neither an http(s) URL nor a directory")
            return nil
        } else {
            directory = Self.standardizedPath(text, relativeTo: baseDirectory)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            report(path, "directory \(Self.quoted(directory)) does not exist")
            return nil
        }
        return .directory(path: directory)
    }

    private mutating func injectHeaders(_ value: ConfigValue?, at path: ConfigPath) -> [Mount.Header] {
        guard let members = anyObject(value, at: path) else { return [] }
        var headers: [Mount.Header] = []
        var seen: Set<String> = []
        for name in members.keys.sorted() {
            let headerPath = path.key(name)
            guard checkHeaderName(name, at: headerPath, forbidden: Self.framingHeaders, seen: &seen),
                let value = string(members[name], at: headerPath)
            else { continue }
            // Values are never echoed: they often hold secrets expanded from the environment.
            guard Self.isFieldValue(value) else {
                report(headerPath, "header value contains control characters")
                continue
            }
            headers.append(Mount.Header(name: name, value: value))
        }
        return headers
    }

    private mutating func forwardHeaders(_ value: ConfigValue?, at path: ConfigPath) -> [String] {
        guard let elements = array(value, at: path) else { return [] }
        var names: [String] = []
        var seen: Set<String> = []
        for (index, element) in elements.enumerated() {
            let elementPath = path.index(index)
            guard let name = string(element, at: elementPath),
                checkHeaderName(name, at: elementPath, forbidden: Self.framingHeaders.union(["host"]), seen: &seen)
            else { continue }
            names.append(name)
        }
        return names
    }

    /// Reports a name that is not an RFC 9110 token, is hop-by-hop or framing, or repeats (case-insensitively).
    private mutating func checkHeaderName(_ name: String, at path: ConfigPath, forbidden: Set<String>, seen: inout Set<String>)
        -> Bool
    {
        let lowered = Self.asciiLowercased(name)
        if !Self.isToken(name) {
            report(path, "header name \(Self.quoted(name)) is not an RFC 9110 token")
        } else if forbidden.contains(lowered) {
            report(path, "header \(name) is managed by the proxy per connection and cannot be set here")
        } else if !seen.insert(lowered).inserted {
            report(path, "header \(name) is listed twice (header names are case-insensitive)")
        } else {
            return true
        }
        return false
    }

    /// RFC 9110 §7.6.1 hop-by-hop fields and the body framing fields: each hop sets its own.
    private static let framingHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
        "content-length",
    ]
}
