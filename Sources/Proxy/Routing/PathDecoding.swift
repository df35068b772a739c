import HTTPServer
import HTTPWire

/// Percent-decoding of request path pieces (RFC 3986 §2.1), strict: a bad escape or NUL is a 400.
enum PathDecoding {
    /// Decodes one path segment; an encoded "/" stays inside the segment.
    static func decodeSegment<S: StringProtocol>(_ segment: S) throws(ProxyError) -> String {
        guard segment.containsUTF8(UInt8(ascii: "%")) else { return String(segment) }
        var out: [UInt8] = []
        out.reserveCapacity(segment.utf8.count)
        var iterator = segment.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(PathPattern.hexValue), let low = iterator.next().flatMap(PathPattern.hexValue) else {
                throw .badRequest("malformed percent-encoding in path")
            }
            let decoded = high << 4 | low
            guard decoded != 0 else { throw .badRequest("NUL in path") }
            out.append(decoded)
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw .badRequest("path is not valid UTF-8")
        }
        return text
    }

    /// Decodes a whole path (segments joined by "/").
    static func decodePath<S: StringProtocol>(_ path: S) throws(ProxyError) -> String {
        guard path.containsUTF8(UInt8(ascii: "%")) else { return String(path) }
        var parts: [String] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            parts.append(try decodeSegment(segment))
        }
        return parts.joined(separator: "/")
    }
}
