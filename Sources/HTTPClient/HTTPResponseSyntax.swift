import HTTPWire
/// The status line and header fields of a response.
struct HTTPResponseHead: Equatable {
    var version: HTTPVersion
    var status: Int
    var reasonPhrase: String
    var headers: HTTPHeaders
}

/// Pure parsing of response-head syntax, kept apart from I/O so it is tested on bytes.
enum HTTPResponseSyntax {
    /// `HTTP/1.1 200 OK`; also accepts a missing reason phrase (`HTTP/1.1 200`, `HTTP/1.1 200 `), which
    /// RFC 9112 §4 allows and URLSession on Linux rejects.
    static func parseStatusLine(_ line: [UInt8]) throws(HTTPClientError) -> HTTPResponseHead {
        let prefix = Array("HTTP/".utf8)
        guard line.count >= 12, Array(line[0..<5]) == prefix else { throw .malformedResponse("bad status line") }
        let major = line[5], dot = line[6], minor = line[7]
        guard isDigit(major), dot == UInt8(ascii: "."), isDigit(minor), line[8] == 0x20 else {
            throw .malformedResponse("bad status line")
        }
        guard major == UInt8(ascii: "1") else { throw .malformedResponse("unsupported HTTP version") }
        let codeBytes = line[9..<12]
        guard codeBytes.allSatisfy(isDigit) else { throw .malformedResponse("bad status code") }
        let code = codeBytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard code >= 100 else { throw .malformedResponse("bad status code") }
        var reason = ""
        if line.count > 12 {
            guard line[12] == 0x20 else { throw .malformedResponse("bad status line") }
            reason = String(decoding: line[13...], as: UTF8.self)
        }
        let version = HTTPVersion(major: 1, minor: Int(minor - UInt8(ascii: "0")))
        return HTTPResponseHead(version: version, status: code, reasonPhrase: reason, headers: HTTPHeaders())
    }

    /// `Name: value`, `Name:value` (no space, which URLSession on Linux rejects) and trailing whitespace.
    /// RFC 9112 §5.1: no whitespace between name and colon.
    static func parseField(_ line: [UInt8]) throws(HTTPClientError) -> (String, String) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else {
            throw .malformedResponse("header line without a name")
        }
        guard line[0..<colon].allSatisfy(isTokenByte) else { throw .malformedResponse("bad header name") }
        let name = String(decoding: line[0..<colon], as: UTF8.self)
        return (name, try fieldValue(line[(colon + 1)...]))
    }

    /// A field value with surrounding SP/HT removed; control bytes other than HT are malformed.
    static func fieldValue(_ bytes: ArraySlice<UInt8>) throws(HTTPClientError) -> String {
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
        while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        let value = bytes[start..<end]
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw .malformedResponse("control character in a header value")
        }
        return String(decoding: value, as: UTF8.self)
    }

    /// RFC 9112 §7.1: `1*HEXDIG [BWS ";" chunk-ext]`. Strict: no sign, no prefix, no overflow.
    static func parseChunkSize(_ line: [UInt8]) throws(HTTPClientError) -> Int {
        var size = 0
        var index = 0
        while index < line.count, let digit = hexValue(line[index]) {
            let (shifted, o1) = size.multipliedReportingOverflow(by: 16)
            let (next, o2) = shifted.addingReportingOverflow(digit)
            guard !o1, !o2 else { throw .malformedResponse("chunk size overflows") }
            size = next
            index += 1
        }
        guard index > 0 else { throw .malformedResponse("bad chunk size") }
        while index < line.count && (line[index] == 0x20 || line[index] == 0x09) { index += 1 }
        guard index == line.count || line[index] == UInt8(ascii: ";") else { throw .malformedResponse("bad chunk size") }
        return size
    }

    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: return Int(byte - 0x30)
        case 0x41...0x46: return Int(byte - 0x41 + 10)
        case 0x61...0x66: return Int(byte - 0x61 + 10)
        default: return nil
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// RFC 9110 §5.6.2 tchar.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }
}
