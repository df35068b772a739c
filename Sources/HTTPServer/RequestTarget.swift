import HTTPWire
/// The path and query taken from a request-target (RFC 9112 §3.2).
struct RequestTarget {
    var path: String
    var rawPath: String
    var query: String?

    /// Origin-form (`/p?q`), absolute-form (`http://host/p?q`, path and query taken from it), or `*` for OPTIONS.
    static func parse(_ target: String, method: HTTPMethod) -> Result<RequestTarget, RequestError> {
        // Origin-form, the usual one: split on the bytes in place.
        if let parsed = target.utf8.withContiguousStorageIfAvailable({ originForm(target, bytes: $0) }), let parsed {
            return parsed
        }
        if target == "*" {
            // RFC 9112 §3.2.4: asterisk-form is only used for a server-wide OPTIONS request.
            guard method == .options else { return .failure(.badRequest("asterisk target outside OPTIONS")) }
            return .success(RequestTarget(path: "*", rawPath: "*", query: nil))
        }
        var pathAndQuery = Substring(target)
        if target.utf8.first != 0x2F {
            let lowered = target.prefix(8).lowercased()
            let schemeLength = lowered.hasPrefix("http://") ? 7 : lowered.hasPrefix("https://") ? 8 : 0
            guard schemeLength > 0 else { return .failure(.badRequest("unsupported request target form")) }
            let afterScheme = target.dropFirst(schemeLength)
            let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
            guard authorityEnd > afterScheme.startIndex else { return .failure(.badRequest("absolute target without host")) }
            pathAndQuery = afterScheme[authorityEnd...]
            if !pathAndQuery.hasPrefix("/") { pathAndQuery = "/" + pathAndQuery }
        }
        // Over contiguous bytes when there are some (a generic Substring search costs several times more).
        let utf8 = pathAndQuery.utf8
        let queryOffset = utf8.withContiguousStorageIfAvailable { $0.firstIndex(of: 0x3F) }
        let queryStart = queryOffset.map { $0.map { utf8.index(utf8.startIndex, offsetBy: $0) } } ?? utf8.firstIndex(of: 0x3F)
        // The usual origin-form target without a query is its own raw path: share the string.
        let rawPath = queryStart == nil && target.utf8.first == 0x2F
            ? target : String(pathAndQuery[..<(queryStart ?? pathAndQuery.endIndex)])
        let query = queryStart.map { String(pathAndQuery[pathAndQuery.index(after: $0)...]) }
        // Without an escape the decoded path is the raw one (the request line allows only visible ASCII).
        guard let path = rawPath.containsUTF8(0x25) ? PercentDecoding.decodePath(rawPath.utf8) : rawPath else {
            return .failure(.badRequest("invalid percent-encoding in path"))
        }
        return .success(RequestTarget(path: path, rawPath: rawPath, query: query))
    }

    /// Path and query of an origin-form target (`/p?q`) from its bytes, one pass to the `?` and one for
    /// a `%` before it; nil for any other form. Without a query the target is its own raw path, and
    /// without an escape its own decoded path: the strings are shared, not copied.
    private static func originForm(_ target: String, bytes: UnsafeBufferPointer<UInt8>) -> Result<RequestTarget, RequestError>? {
        guard bytes.first == 0x2F else { return nil }
        let queryStart = bytes.firstIndex(of: 0x3F)
        let pathBytes = UnsafeBufferPointer(rebasing: bytes[..<(queryStart ?? bytes.count)])
        let rawPath = queryStart == nil ? target : String(decoding: pathBytes, as: UTF8.self)
        let query = queryStart.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[($0 + 1)...]), as: UTF8.self) }
        guard let path = pathBytes.contains(0x25) ? PercentDecoding.decodePath(pathBytes) : rawPath else {
            return .failure(.badRequest("invalid percent-encoding in path"))
        }
        return .success(RequestTarget(path: path, rawPath: rawPath, query: query))
    }
}
