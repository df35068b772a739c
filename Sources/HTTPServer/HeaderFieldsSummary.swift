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

    /// Parses `field-name ":" OWS field-value OWS` (RFC 9112 §5) and appends it.
    mutating func add(_ line: Slice<UnsafeBufferPointer<UInt8>>, to headers: inout HTTPHeaders) -> Result<Void, RequestError> {
        guard let first = line.first else { return .failure(.badRequest("empty header line")) }
        // RFC 9112 §5.2: obs-fold is rejected with 400 outside message/http.
        if first == 0x20 || first == 0x09 { return .failure(.badRequest("obsolete line folding in header")) }
        guard let colon = line.firstIndex(of: 0x3A) else { return .failure(.badRequest("header line without colon")) }
        let name = line[..<colon]
        guard let last = name.last else { return .failure(.badRequest("empty header name")) }
        // RFC 9112 §5.1: no whitespace is allowed between the field name and colon; 400.
        if last == 0x20 || last == 0x09 { return .failure(.badRequest("whitespace before colon in header")) }
        guard HTTPSyntax.isToken(UnsafeBufferPointer(rebasing: name)) else { return .failure(.badRequest("invalid character in header name")) }
        var value = line[(colon + 1)...]
        while let byte = value.first, byte == 0x20 || byte == 0x09 { value = value.dropFirst() }
        while let byte = value.last, byte == 0x20 || byte == 0x09 { value = value.dropLast() }
        let nameBytes = UnsafeBufferPointer(rebasing: name), valueBytes = UnsafeBufferPointer(rebasing: value)
        let kind = FramingFieldName(nameBytes)
        headers.appendParsed(name: nameBytes, value: valueBytes, kind: kind)
        return note(valueBytes, kind: kind)
    }

    private mutating func note(_ value: UnsafeBufferPointer<UInt8>, kind: FramingFieldName) -> Result<Void, RequestError> {
        switch kind {
        case .other, .date, .server:
            break
        case .host:
            hostCount += 1
        case .contentLength:
            // RFC 9110 §8.6: a list of identical values may be taken as one; anything else is invalid framing.
            for element in value.split(separator: 0x2C, omittingEmptySubsequences: false) {
                let digits = element.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
                guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else {
                    return .failure(.badRequest("invalid Content-Length"))
                }
                var length = 0
                for digit in digits {
                    let (times, overflowA) = length.multipliedReportingOverflow(by: 10)
                    let (sum, overflowB) = times.addingReportingOverflow(Int(digit - 0x30))
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
            for element in value.split(separator: 0x2C, omittingEmptySubsequences: false) {
                let coding = element.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
                guard !coding.isEmpty else { continue }
                transferCodingCount += 1
                lastCodingIsChunked = coding.count == 7 && zip(coding, "chunked".utf8).allSatisfy { $0 | 0x20 == $1 }
            }
        case .connection:
            connection.add(String(decoding: value, as: UTF8.self))
        }
        return .success(())
    }
}
