import HTTPServer
import HTTPWire

/// CORS for players in browsers (hls.js needs it on playlists, subtitle files and redirects).
struct CORSPolicy: Sendable {
    let allowOrigins: [String]
    /// `*` is among the allowed origins: every response gets the same two fields.
    let allowsAnyOrigin: Bool

    /// The CORS fields every response carries whatever the request: with any origin allowed, the
    /// allow and expose fields; otherwise none (they then depend on the request's Origin).
    let fixedFields: HTTPHeaders

    /// The response fields a script on another origin may read.
    static let exposedFields = [HTTPFieldName.contentLength, .contentRange, .hlsProxyRoute].map(\.text).joined(separator: ", ")

    init(allowOrigins: [String]) {
        self.allowOrigins = allowOrigins
        allowsAnyOrigin = allowOrigins.contains("*")
        var fixed = HTTPHeaders()
        if allowsAnyOrigin {
            fixed.add(.accessControlAllowOrigin, "*")
            fixed.add(.accessControlExposeHeaders, Self.exposedFields)
        }
        fixedFields = fixed
    }

    /// The Access-Control-Allow-Origin value for a request, or nil when its Origin is not allowed.
    func allowedOrigin(for request: HTTPRequest) -> String? {
        if allowsAnyOrigin { return "*" }
        guard let origin = request.headers[.origin], allowOrigins.contains(origin) else { return nil }
        return origin
    }

    /// Adds the CORS fields that depend on the request (responders never set them, so they are appended,
    /// not replaced). With any origin allowed there are none: `fixedFields` holds them.
    func decorate(_ response: inout HTTPResponse, request: HTTPRequest) {
        guard !allowsAnyOrigin else { return }
        response.headers.add(.vary, HTTPFieldName.origin.text)
        guard let allowed = allowedOrigin(for: request) else { return }
        response.headers.add(.accessControlAllowOrigin, allowed)
        response.headers.add(.accessControlExposeHeaders, Self.exposedFields)
    }

    /// Answers an OPTIONS preflight (Fetch standard §3.2.3).
    func preflight(_ request: HTTPRequest) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[.allow] = "GET, HEAD, OPTIONS"
        if allowedOrigin(for: request) != nil {
            headers[.accessControlAllowMethods] = "GET, HEAD, OPTIONS"
            if let asked = request.headers[.accessControlRequestHeaders], Self.isTokenList(asked) {
                headers[.accessControlAllowHeaders] = asked
            }
            headers[.accessControlMaxAge] = "86400"
        }
        return HTTPResponse(status: .noContent, headers: headers)
    }

    /// Only a comma-separated list of header-name tokens is echoed back.
    private static func isTokenList(_ value: String) -> Bool {
        value.count <= 1024 && value.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: " ")
        }
    }
}
