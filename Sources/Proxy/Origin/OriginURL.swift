/// A URI reference split into its RFC 3986 components, and reference resolution (§5.2) for
/// Location headers. The query is kept byte for byte; the fragment is dropped (never sent).
struct OriginURL: Equatable {
    /// The scheme, lowercased; nil for a relative reference.
    var scheme: String?
    /// The authority as written (userinfo, host, port); nil when absent.
    var authority: String?
    /// The path, possibly empty.
    var path: String
    /// The query without "?", or nil.
    var query: String?

    /// Splits a reference (RFC 3986 Appendix B). The delimiters are ASCII, so the scan is over UTF-8
    /// bytes, not Characters: a delimiter followed by a combining mark still delimits, as the RFC's
    /// grammar says, and a URL costs about a tenth of a Character scan (it is split several times a fetch).
    init(parsing text: String) {
        let bytes = text.utf8
        let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        var start = bytes.startIndex
        if let colon = bytes[start..<end].firstIndex(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }),
           bytes[colon] == UInt8(ascii: ":"),
           OriginURL.isScheme(text[start..<colon]) {
            scheme = text[start..<colon].lowercased()
            start = bytes.index(after: colon)
        } else {
            scheme = nil
        }
        let rest = bytes[start..<end]
        if rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            let afterSlashes = bytes.index(start, offsetBy: 2)
            let authorityEnd = bytes[afterSlashes..<end].firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) ?? end
            authority = String(text[afterSlashes..<authorityEnd])
            start = authorityEnd
        } else {
            authority = nil
        }
        if let mark = bytes[start..<end].firstIndex(of: UInt8(ascii: "?")) {
            path = String(text[start..<mark])
            query = String(text[bytes.index(after: mark)..<end])
        } else {
            path = String(text[start..<end])
            query = nil
        }
    }

    /// Makes a URL from components.
    init(scheme: String?, authority: String?, path: String, query: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
    }

    /// The recomposed string (RFC 3986 §5.3).
    var string: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        return result
    }

    /// `reference` resolved against this (absolute) URL, RFC 3986 §5.2.2 strict.
    func resolving(_ reference: OriginURL) -> OriginURL {
        if reference.scheme != nil {
            return OriginURL(scheme: reference.scheme, authority: reference.authority,
                             path: OriginURL.removingDotSegments(reference.path), query: reference.query)
        }
        if reference.authority != nil {
            return OriginURL(scheme: scheme, authority: reference.authority,
                             path: OriginURL.removingDotSegments(reference.path), query: reference.query)
        }
        if reference.path.isEmpty {
            return OriginURL(scheme: scheme, authority: authority, path: path, query: reference.query ?? query)
        }
        if reference.path.hasPrefix("/") {
            return OriginURL(scheme: scheme, authority: authority,
                             path: OriginURL.removingDotSegments(reference.path), query: reference.query)
        }
        // §5.2.3 merge: an empty base path with an authority becomes "/".
        let merged: String
        if authority != nil && path.isEmpty {
            merged = "/" + reference.path
        } else if let slash = path.lastIndex(of: "/") {
            merged = String(path[...slash]) + reference.path
        } else {
            merged = reference.path
        }
        return OriginURL(scheme: scheme, authority: authority, path: OriginURL.removingDotSegments(merged), query: reference.query)
    }

    /// RFC 3986 §5.2.4.
    static func removingDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                _ = output.popLast()
            } else if input == "/.." {
                input = "/"
                _ = output.popLast()
            } else if input == "." || input == ".." {
                input = ""
            } else {
                // Move the first segment (with its leading "/", if any) to the output.
                let searchStart = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[searchStart...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }

    /// RFC 3986 §3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
    static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, (first | 0x20) >= 0x61, (first | 0x20) <= 0x7A else { return false }
        return text.utf8.allSatisfy { byte in
            let lower = byte | 0x20
            return (lower >= 0x61 && lower <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }
}
