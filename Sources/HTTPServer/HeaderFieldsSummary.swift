import HTTPWire
/// The framing-relevant facts gathered while header fields are parsed one line at a time.
struct HeaderFieldsSummary {
    var hostCount = 0
    /// The agreed Content-Length, once one is seen.
    var contentLength: Int?
    var hasTransferEncoding = false
    /// Transfer codings listed over every Transfer-Encoding field, and whether the one so far is `chunked`.
    var transferCodingCount = 0
    var lastCodingIsChunked = false
    /// The body is chunked and nothing else: the one transfer coding the server reads (as nginx, any
    /// other list gets 501).
    var isChunkedOnly: Bool { transferCodingCount == 1 && lastCodingIsChunked }
    var connection = ConnectionOptions()

    /// Parses `field-name ":" OWS field-value OWS` (RFC 9112 §5) and appends it; every byte is read
    /// through the span's checked subscript.
    mutating func add(_ line: Span<UInt8>, to headers: inout HTTPHeaders) -> Result<Void, RequestError> {
        guard !line.isEmpty else { return .failure(.badRequest("empty header line")) }
        // RFC 9112 §5.2: obs-fold is rejected with 400 outside message/http.
        if Self.isOWS(line[0]) { return .failure(.badRequest("obsolete line folding in header")) }
        guard let colon = ByteSearch.firstIndex(of: 0x3A, in: line) else { return .failure(.badRequest("header line without colon")) }
        guard colon > 0 else { return .failure(.badRequest("empty header name")) }
        // RFC 9112 §5.1: no whitespace is allowed between the field name and colon; 400.
        if Self.isOWS(line[colon - 1]) { return .failure(.badRequest("whitespace before colon in header")) }
        let name = line.extracting(0..<colon)
        guard HTTPSyntax.isToken(name) else { return .failure(.badRequest("invalid character in header name")) }
        let valueRange = Self.trimmingOWS(line, (colon + 1)..<line.count)
        let value = line.extracting(valueRange)
        let kind = FramingFieldName(name)
        headers.appendParsed(name: name, value: value, kind: kind)
        return note(value, kind: kind)
    }

    private mutating func note(_ value: Span<UInt8>, kind: FramingFieldName) -> Result<Void, RequestError> {
        switch kind {
        case .other, .date, .server:
            break
        case .host:
            hostCount += 1
        case .contentLength:
            // RFC 9110 §8.6: a list of identical values may be taken as one; anything else is invalid framing.
            var elementStart = 0
            while elementStart <= value.count {
                let elementEnd = ByteSearch.firstIndex(of: 0x2C, in: value, from: elementStart) ?? value.count
                let digits = Self.trimmingOWS(value, elementStart..<elementEnd)
                elementStart = elementEnd + 1
                guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains(value[$0]) }) else {
                    return .failure(.badRequest("invalid Content-Length"))
                }
                var length = 0
                for index in digits {
                    let (times, overflowA) = length.multipliedReportingOverflow(by: 10)
                    let (sum, overflowB) = times.addingReportingOverflow(Int(value[index] - 0x30))
                    // Too large to represent is certainly over the body limit.
                    length = overflowA || overflowB ? Int.max : sum
                }
                if let known = contentLength, known != length {
                    return .failure(.badRequest("conflicting Content-Length values"))
                }
                contentLength = length
            }
        case .transferEncoding:
            hasTransferEncoding = true
            // RFC 9110 §5.6.1: a list; empty elements are ignored. RFC 9112 §7: coding names are case-insensitive.
            var elementStart = 0
            while elementStart <= value.count {
                let elementEnd = ByteSearch.firstIndex(of: 0x2C, in: value, from: elementStart) ?? value.count
                let coding = Self.trimmingOWS(value, elementStart..<elementEnd)
                elementStart = elementEnd + 1
                guard !coding.isEmpty else { continue }
                transferCodingCount += 1
                lastCodingIsChunked = coding.count == 7
                    && zip(coding, "chunked".utf8).allSatisfy { value[$0] | 0x20 == $1 }
            }
        case .connection:
            connection.add(String(utf8: value))
        }
        return .success(())
    }

    /// SP or HTAB: optional whitespace (RFC 9110 §5.6.3).
    private static func isOWS(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// `range` of `bytes` without leading and trailing OWS.
    private static func trimmingOWS(_ bytes: Span<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, isOWS(bytes[lower]) { lower += 1 }
        while upper > lower, isOWS(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }
}
