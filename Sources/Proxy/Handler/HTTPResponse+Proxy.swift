import HTTPServer
import HTTPWire

extension HTTPResponse {
    /// Room for a responder's own fields plus those `ProxyHandler.finish` adds (route, CORS,
    /// Accept-Ranges, Content-Range), so the list is allocated once per response and never grows.
    static let fieldCapacity = 8

    /// A plain-text answer that is not to be stored (health, readiness, metrics, errors). Inlined, so a
    /// literal body and its newline are joined at compile time. Its fields are one of two lists made
    /// once and shared (`ProxyHandler.finish` copies it when it adds the route's): a 200 carries
    /// Accept-Ranges already, which `ByteRangeRequest` would add to it, in the same place.
    @inline(__always)
    static func makeText(_ status: HTTPStatus, _ body: String, trailingNewline: Bool = true) -> HTTPResponse {
        HTTPResponse(status: status, headers: status.code == 200 ? textFieldsForOK : textFields,
                     bytes: Array((trailingNewline ? body + "\n" : body).utf8))
    }

    private static let textFields = textFields(acceptingRanges: false)
    private static let textFieldsForOK = textFields(acceptingRanges: true)

    private static func textFields(acceptingRanges: Bool) -> HTTPHeaders {
        var headers = HTTPHeaders(reservingCapacity: 3)
        headers.add(.contentType, "text/plain; charset=utf-8")
        headers.add(.cacheControl, "no-store")
        if acceptingRanges { headers.add(.acceptRanges, "bytes") }
        return headers
    }

    /// An error answer: the status line's code and phrase, then why (SPEC "Errors").
    static func makeError(_ status: HTTPStatus, _ reason: String) -> HTTPResponse {
        makeText(status, "\(status.code) \(status.reasonPhrase): \(reason)")
    }

    /// A synthesized playlist (rewritten master or subtitle playlist) with its strong ETag.
    static func makePlaylist(_ body: TaggedBody, cacheControl: String) -> HTTPResponse {
        makeTagged(body, contentType: MediaType.playlist, cacheControl: cacheControl)
    }

    /// A 200 for a body the proxy made: its type, Cache-Control and ETag (which `ProxyHandler.finish`
    /// answers If-None-Match and If-Range against), and `Accept-Ranges: bytes`, which `ByteRangeRequest`
    /// would add to it on every request (a copy of a kept answer's shared field list each time).
    static func makeTagged(_ body: TaggedBody, contentType: String, cacheControl: String) -> HTTPResponse {
        var headers = HTTPHeaders(reservingCapacity: fieldCapacity)
        headers.add(.contentType, contentType)
        headers.add(.cacheControl, cacheControl)
        headers.add(.etag, body.etag)
        headers.add(.acceptRanges, "bytes")
        return HTTPResponse(status: .ok, headers: headers, bytes: body.bytes)
    }
}
