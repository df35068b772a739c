import Foundation
import HTTPWire

/// RFC 3986 §5 reference resolution and small URL facts the proxy needs.
enum URLReference {
    /// Resolves `reference` against `base`; nil when either cannot be parsed.
    static func resolve(_ reference: String, against base: String) -> String? {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        guard let baseURL = URL(string: base),
              let resolved = URL(string: trimmed, relativeTo: baseURL)
        else { return nil }
        // RFC 3986 §5.2.2: an absolute reference's dot segments are removed too, which Foundation leaves
        // to `standardized` (escaped dots and the query stay as written).
        return MasterRelocation.isAbsolute(trimmed) ? resolved.standardized.absoluteString : resolved.absoluteString
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
        if url.containsUTF8(UInt8(ascii: "%")) {
            let path = URL(string: url)?.path ?? url
            guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
            return path[path.index(after: dot)...].lowercased()
        }
        // Byte by byte otherwise: this runs for every pass-through request.
        guard let found = extensionRange(bytes.span) else { return "" }
        let lower = bytes.index(bytes.startIndex, offsetBy: found.lowerBound)
        return url[lower..<bytes.index(lower, offsetBy: found.count)].lowercased()
    }

    /// Where the extension lies in an unescaped path or URL: after the last `.` of the last path
    /// segment, before any query or fragment; nil when there is none.
    private static func extensionRange(_ bytes: Span<UInt8>) -> Range<Int>? {
        // One pass to the query or fragment, noting the first `:` and the last `/` and `.` (every
        // directory-mount file asks, with its whole absolute path).
        var end = bytes.count
        var colon: Int?
        var lastSlash: Int?
        var lastDot: Int?
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                end = index
                break
            }
            if byte == UInt8(ascii: "/") {
                lastSlash = index
            } else if byte == UInt8(ascii: ".") {
                lastDot = index
            } else if byte == UInt8(ascii: ":"), colon == nil {
                colon = index
            }
        }
        var pathStart = 0
        if let colon, colon > 0, isScheme(bytes, 0..<colon),
           colon + 3 <= end, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") {
            // `scheme://authority/path`: the path starts at the first `/` after the authority.
            pathStart = firstIndex(of: UInt8(ascii: "/"), in: bytes, (colon + 3)..<end) ?? end
        }
        let nameStart = lastSlash.flatMap { $0 >= pathStart ? $0 + 1 : nil } ?? pathStart
        guard let dot = lastDot, dot >= nameStart else { return nil }
        return (dot + 1)..<end
    }

    private static func firstIndex(of byte: UInt8, in bytes: Span<UInt8>, _ range: Range<Int>) -> Int? {
        for index in range where bytes[index] == byte { return index }
        return nil
    }

    /// RFC 3986 §3.1: a scheme starts with a letter ("1http" or "-" before "://" is no scheme).
    private static func isScheme(_ bytes: Span<UInt8>, _ range: Range<Int>) -> Bool {
        guard let first = range.first, (bytes[first] | 0x20) >= 0x61, (bytes[first] | 0x20) <= 0x7A else { return false }
        for index in range where !isSchemeByte(bytes[index]) { return false }
        return true
    }

    /// Whether the path or URL's extension is one of `candidates` (lowercase ASCII), compared without
    /// building the extension as a String.
    static func hasExtension(_ url: String, in candidates: [String]) -> Bool {
        matchingExtension(url, in: [candidates]) != nil
    }

    /// The index of the first list in `lists` (lowercase ASCII extensions) that holds the path or URL's
    /// extension, found in one pass and compared without building the extension as a String (every
    /// directory-mount file asks this for its Content-Type); nil when none does.
    static func matchingExtension(_ url: String, in lists: [[String]]) -> Int? {
        guard !url.containsUTF8(UInt8(ascii: "%")) else {
            let found = pathExtension(of: url)
            return lists.firstIndex { $0.contains(found) }
        }
        let bytes = url.utf8.span
        guard let found = extensionRange(bytes) else { return nil }
        return listIndex(holding: found, of: bytes, in: lists)
    }

    /// As `matchingExtension`, for a file's absolute path as the kernel reads it: no query, fragment
    /// or escape, so a `?`, `#` or `%` in a directory's or the file's name is only a byte of it (a
    /// directory mount's path is decoded once already; decoding it again, or stopping at a `#`, typed
    /// `Season #1/ep1.m3u8` or `a%2Em3u8` wrong).
    static func matchingFileExtension(_ path: String, in lists: [[String]]) -> Int? {
        let bytes = path.utf8.span
        var dot: Int?
        for index in bytes.indices {
            if bytes[index] == UInt8(ascii: "/") {
                dot = nil
            } else if bytes[index] == UInt8(ascii: ".") {
                dot = index
            }
        }
        guard let dot else { return nil }
        return listIndex(holding: (dot + 1)..<bytes.count, of: bytes, in: lists)
    }

    /// The index of the first list in `lists` with a candidate equal to `bytes[found]`, ASCII letters
    /// folded to lowercase; nil when none has one.
    private static func listIndex(holding found: Range<Int>, of bytes: Span<UInt8>, in lists: [[String]]) -> Int? {
        for (index, candidates) in lists.enumerated() {
            for candidate in candidates where candidate.utf8.count == found.count && Self.matches(candidate, bytes, at: found.lowerBound) {
                return index
            }
        }
        return nil
    }

    /// Whether `candidate` is at `start` in `bytes`, ASCII letters folded to lowercase (the candidate is
    /// lowercase already).
    private static func matches(_ candidate: String, _ bytes: Span<UInt8>, at start: Int) -> Bool {
        for (offset, name) in candidate.utf8.enumerated() {
            let byte = bytes[start + offset]
            if name != byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0) { return false }
        }
        return true
    }

    /// RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}

extension URLReference {
    /// The shapes of URI reference a playlist holds (RFC 3986 §4.1, §4.2).
    enum Form {
        /// `v0/index.m3u8`, `../x`, `?q`: resolved against the playlist's directory.
        case relative
        /// `/v0/index.m3u8`: resolved against the playlist's origin.
        case pathAbsolute
        /// `//host/path`: resolved against the playlist's scheme.
        case schemeRelative
        /// `http://...` or `https://...`, any case.
        case absoluteHTTP
        /// `data:`, `skd:` and other schemes the proxy never maps.
        case otherScheme
    }

    /// Which form `reference` has.
    static func form(of reference: String) -> Form {
        let utf8 = reference.utf8
        if utf8.starts(with: "//".utf8) { return .schemeRelative }
        if utf8.first == UInt8(ascii: "/") { return .pathAbsolute }
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), colon != utf8.startIndex,
              utf8[..<colon].allSatisfy(isSchemeByte)
        else { return .relative }
        let scheme = reference[..<colon].lowercased()
        return scheme == "http" || scheme == "https" ? .absoluteHTTP : .otherScheme
    }

    /// `url` with its scheme and authority lowercased (RFC 3986 §6.2.2.1: they are case-insensitive),
    /// so it can be compared with a mount's base URL, which is stored that way.
    static func lowercasingSchemeAndHost(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let head = url[..<authorityEnd]
        guard head.contains(where: \.isUppercase) else { return url }
        return head.lowercased() + url[authorityEnd...]
    }
}
