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
        let bytes = url.utf8
        // Escapes need URL's decoding (an encoded dot still names an extension); they are rare.
        if bytes.contains(UInt8(ascii: "%")) {
            let path = URL(string: url)?.path ?? url
            guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
            return path[path.index(after: dot)...].lowercased()
        }
        // Byte by byte otherwise: this runs for every pass-through request.
        let end = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        var pathStart = bytes.startIndex
        if let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")), colon > bytes.startIndex,
           bytes[..<colon].allSatisfy(isSchemeByte), bytes[colon..<end].starts(with: "://".utf8) {
            // `scheme://authority/path`: the path starts at the first `/` after the authority.
            let authority = bytes.index(colon, offsetBy: 3)
            pathStart = bytes[authority..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
        }
        let path = bytes[pathStart..<end]
        let nameStart = path.lastIndex(of: UInt8(ascii: "/")).map { bytes.index(after: $0) } ?? pathStart
        guard let dot = bytes[nameStart..<end].lastIndex(of: UInt8(ascii: ".")) else { return "" }
        return url[bytes.index(after: dot)..<end].lowercased()
    }

    /// RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
