import HTTPServer
import HTTPWire

extension HTTPResponse {
    /// Room for a responder's own fields plus those `ProxyHandler.finish` adds (route, CORS,
    /// Accept-Ranges, Content-Range), so the list is allocated once per response and never grows.
    static let fieldCapacity = 8

    /// A plain-text answer that is not to be stored (health, readiness, metrics, errors). Inlined, so a
    /// literal body and its newline are joined at compile time.
    @inline(__always)
    static func makeText(_ status: HTTPStatus, _ body: String, trailingNewline: Bool = true) -> HTTPResponse {
        var headers = HTTPHeaders(reservingCapacity: fieldCapacity)
        headers.add(.contentType, "text/plain; charset=utf-8")
        headers.add(.cacheControl, "no-store")
        return HTTPResponse(status: status, headers: headers, bytes: Array((trailingNewline ? body + "\n" : body).utf8))
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
    /// answers If-None-Match and If-Range against).
    static func makeTagged(_ body: TaggedBody, contentType: String, cacheControl: String) -> HTTPResponse {
        var headers = HTTPHeaders(reservingCapacity: fieldCapacity)
        headers.add(.contentType, contentType)
        headers.add(.cacheControl, cacheControl)
        headers.add(.etag, body.etag)
        return HTTPResponse(status: .ok, headers: headers, bytes: body.bytes)
    }
}

/// The media types the proxy writes.
enum MediaType {
    /// RFC 8216 §4: playlists.
    static let playlist = "application/vnd.apple.mpegurl"
    static let webVTT = "text/vtt; charset=utf-8"

    /// Content-Type by file extension, for file mounts and pass-through without an origin type.
    static func forPath(_ path: String) -> String {
        switch URLReference.pathExtension(of: path) {
        case "m3u8", "m3u": return playlist
        case "ts": return "video/mp2t"
        case "m4s", "mp4", "m4v", "cmfv": return "video/mp4"
        case "m4a", "cmfa": return "audio/mp4"
        case "aac": return "audio/aac"
        case "vtt", "webvtt": return "text/vtt; charset=utf-8"
        case "srt": return "application/x-subrip"
        case "json": return "application/json"
        case "key": return "application/octet-stream"
        case "html", "htm": return "text/html; charset=utf-8"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
