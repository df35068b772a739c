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
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
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

    /// A hex digit's value (RFC 3986 §2.1 percent-encoding), either case; nil for any other byte.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
