import Foundation

/// RFC 3986 §5 reference resolution and small URL facts the proxy needs.
enum URLReference {
    /// Resolves `reference` against `base`; nil when either cannot be parsed.
    static func resolve(_ reference: String, against base: String) -> String? {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        guard let baseURL = URL(string: base),
              let resolved = URL(string: trimmed, relativeTo: baseURL)
        else { return nil }
        return resolved.absoluteString
    }

    /// `scheme://host:port` of an http(s) URL, lowercased, with the default port made explicit; nil otherwise.
    static func origin(of url: String) -> String? {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = parsed.host?.lowercased()
        else { return nil }
        let port = parsed.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }

    /// The host of an http(s) URL, lowercased.
    static func host(of url: String) -> String? {
        URL(string: url)?.host?.lowercased()
    }

    /// The last path component's extension, lowercased ("vtt", "srt", "m3u8"...), ignoring the query.
    static func pathExtension(of url: String) -> String {
        let path = URL(string: url)?.path ?? url
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
        return path[path.index(after: dot)...].lowercased()
    }
}
