import HTTPServer

/// Strong entity tags for the bodies the proxy makes itself (rewritten masters, subtitle playlists and
/// WebVTT files), and the `If-None-Match` test against them (RFC 9110 §8.8.3, §13.1.2).
///
/// A tag is a pure function of the bytes: every instance behind a load balancer gives the same bytes
/// the same tag, so a CDN can revalidate against any of them.
enum EntityTag {
    /// `"` + the first 128 bits of the body's SHA-256 in hex + `"`. Made once when the body is made.
    static func make(for bytes: [UInt8]) -> String {
        let digest = SHA256.digest(bytes)
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\"")]
        text.reserveCapacity(34)
        for byte in digest.prefix(16) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        text.append(UInt8(ascii: "\""))
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether an `If-None-Match` value (one field, or several joined by commas) names `tag`:
    /// `*`, or any listed tag equal to it by weak comparison (RFC 9110 §8.8.3.2: `W/` ignored on both).
    /// A malformed member ends the list; what was read before it still counts (as nginx does).
    static func noneMatchNames(_ header: String, tag: String) -> Bool {
        let own = opaque(tag.utf8[...])
        let bytes = Array(header.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "*") { return true }
            var start = index
            if byte == UInt8(ascii: "W"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") { start = index + 2 }
            // entity-tag = [ weak ] DQUOTE *etagc DQUOTE; etagc may include commas, so scan to the quote.
            guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { return false }
            guard let close = bytes[(start + 1)...].firstIndex(of: UInt8(ascii: "\"")) else { return false }
            if let own, bytes[start...close].elementsEqual(own) { return true }
            index = close + 1
        }
        return false
    }

    /// The quoted opaque part of a tag (without any `W/`), or nil when it is not a tag.
    private static func opaque(_ tag: Substring.UTF8View) -> Substring.UTF8View? {
        var rest = tag
        if rest.starts(with: "W/".utf8) { rest = rest.dropFirst(2) }
        guard rest.count >= 2, rest.first == UInt8(ascii: "\""), rest.last == UInt8(ascii: "\"") else { return nil }
        return rest
    }

    /// Turns a 200 for a synthesized body into `304 Not Modified` when the request's If-None-Match names
    /// its ETag (RFC 9110 §13.2.2: evaluated before Range, so a 304 ignores the Range). The 304 keeps
    /// ETag, Cache-Control and the fields added after it (route, CORS, Vary) and, as nginx does, drops
    /// the body and Content-Type; the writer sends no Content-Length for a 304 (RFC 9110 §8.6).
    static func applyIfNoneMatch(to response: inout HTTPResponse, request: HTTPRequest) {
        // Most requests carry no If-None-Match: one search of the field list, nothing allocated.
        guard response.status.code == 200, request.headers.contains(.ifNoneMatch), let tag = response.headers[.etag] else { return }
        let conditions = request.headers.values(.ifNoneMatch)
        guard conditions.contains(where: { noneMatchNames($0, tag: tag) }) else { return }
        response.status = .notModified
        response.body = .empty
        response.headers.remove(.contentType)
        // Set with the body (`makeTagged`) for the 200; a 304 has no range to offer.
        response.headers.remove(.acceptRanges)
    }
}
