import HTTPWire
/// The path and query taken from a request-target (RFC 9112 §3.2).
struct RequestTarget {
    var path: String
    var rawPath: String
    var query: String?

    /// Origin-form (`/p?q`), absolute-form (`http://host/p?q`, path and query taken from it), or `*` for OPTIONS.
    static func parse(_ target: String, method: HTTPMethod) -> Result<RequestTarget, RequestError> {
        // Origin-form, the usual one: split on the bytes in place.
        if let parsed = originForm(target, bytes: target.utf8.span) { return parsed }
        if target == "*" {
            // RFC 9112 §3.2.4: asterisk-form is only used for a server-wide OPTIONS request.
            guard method == .options else { return .failure(.badRequest("asterisk target outside OPTIONS")) }
            return .success(RequestTarget(path: "*", rawPath: "*", query: nil))
        }
        let lowered = target.prefix(8).lowercased()
        let schemeLength = lowered.hasPrefix("http://") ? 7 : lowered.hasPrefix("https://") ? 8 : 0
        guard schemeLength > 0 else { return .failure(.badRequest("unsupported request target form")) }
        let afterScheme = target.dropFirst(schemeLength)
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
        guard authorityEnd > afterScheme.startIndex else { return .failure(.badRequest("absolute target without host")) }
        var pathAndQuery = String(afterScheme[authorityEnd...])
        if !pathAndQuery.hasPrefix("/") { pathAndQuery = "/" + pathAndQuery }
        // Now in origin-form, split the same way (never nil: it starts with "/").
        return originForm(pathAndQuery, bytes: pathAndQuery.utf8.span)
            ?? .failure(.badRequest("unsupported request target form"))
    }

    /// Path and query of an origin-form target (`/p?q`) from its bytes, one pass to the `?` and one for
    /// a `%` before it; nil for any other form. Without a query the target is its own raw path, and
    /// without an escape its own decoded path: the strings are shared, not copied.
    private static func originForm(_ target: String, bytes: Span<UInt8>) -> Result<RequestTarget, RequestError>? {
        guard !bytes.isEmpty, bytes[0] == 0x2F else { return nil }
        let queryStart = ByteSearch.firstIndex(of: 0x3F, in: bytes)
        let pathBytes = bytes.extracting(0..<(queryStart ?? bytes.count))
        let rawPath = queryStart == nil ? target : String(utf8: pathBytes)
        var query: String?
        if let queryStart { query = String(utf8: bytes.extracting((queryStart + 1)..<bytes.count)) }
        // Without an escape the decoded path is the raw one (the request line allows only visible ASCII).
        guard ByteSearch.firstIndex(of: 0x25, in: pathBytes) != nil else {
            return .success(RequestTarget(path: rawPath, rawPath: rawPath, query: query))
        }
        guard let path = PercentDecoding.decodePath(rawPath.utf8) else {
            return .failure(.badRequest("invalid percent-encoding in path"))
        }
        return .success(RequestTarget(path: path, rawPath: rawPath, query: query))
    }
}
