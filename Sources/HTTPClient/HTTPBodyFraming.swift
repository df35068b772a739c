import HTTPWire
/// How a response body is delimited (RFC 9112 §6.3).
enum HTTPBodyFraming: Equatable {
    /// No body: HEAD, 1xx, 204, 304.
    case none
    /// Exactly this many bytes.
    case contentLength(Int)
    /// Chunked transfer coding.
    case chunked
    /// Everything until the server closes.
    case untilClose

    /// Decides the framing from the request method, the status and the header fields.
    static func of(method: HTTPMethod, status: Int, headers: HTTPHeaders) throws(HTTPClientError) -> HTTPBodyFraming {
        // RFC 9112 §6.3 rule 1: these never carry a body, whatever the fields say.
        if method == .head || status < 200 || status == 204 || status == 304 { return .none }
        let codings = headers.values("Transfer-Encoding")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingOWS().lowercased() }
            .filter { !$0.isEmpty }
        if !codings.isEmpty {
            // Rule 3: Transfer-Encoding overrides Content-Length; chunked must be the final coding,
            // otherwise the body runs to the close.
            if codings.last == "chunked" {
                guard codings.dropLast().allSatisfy({ $0 != "chunked" }) else {
                    throw .malformedResponse("chunked applied twice")
                }
                return .chunked
            }
            guard !codings.contains("chunked") else { throw .malformedResponse("chunked is not the final coding") }
            return .untilClose
        }
        let lengths = headers.values("Content-Length").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
        if lengths.isEmpty { return .untilClose }
        // Rule 5: several identical values are one length; differing or non-numeric ones are unrecoverable.
        var length: Int?
        for text in lengths {
            guard let value = parseLength(text.trimmingOWS()) else { throw .malformedResponse("bad Content-Length") }
            guard length == nil || length == value else { throw .malformedResponse("conflicting Content-Length") }
            length = value
        }
        return .contentLength(length ?? 0)
    }

    /// 1*DIGIT without sign or overflow.
    static func parseLength(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        var value = 0
        for byte in text.utf8 {
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = shifted.addingReportingOverflow(Int(byte - 0x30))
            if o1 || o2 { return nil }
            value = next
        }
        return value
    }
}
