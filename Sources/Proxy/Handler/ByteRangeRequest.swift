import HTTPServer
import HTTPWire

/// A single `Range: bytes=...` request (RFC 9110 §14.1.2) applied to a body the proxy holds.
enum ByteRangeRequest {
    /// The outcome for a body of a given length.
    enum Outcome: Equatable {
        /// No usable single range: serve the whole body (200). Multi-range requests land here too.
        case whole
        /// Serve `lower...upper` (206).
        case partial(lower: Int, upper: Int)
        /// The range cannot be met (416).
        case unsatisfiable
    }

    /// Interprets a Range header value against a body of `length` bytes.
    static func outcome(header: String?, length: Int) -> Outcome {
        guard let header else { return .whole }
        let value = header.trimmingWhitespace()
        guard value.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = value.dropFirst(6).trimmingWhitespace()
        guard !spec.contains(",") else { return .whole }
        guard let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmingWhitespace()
        let last = spec[spec.index(after: dash)...].trimmingWhitespace()
        if first.isEmpty {
            // Suffix form "-n": the last n bytes (all of them when n is larger than the body).
            guard let count = saturatingDecimal(last) else { return .whole }
            guard count > 0, length > 0 else { return .unsatisfiable }
            return .partial(lower: max(0, length - count), upper: length - 1)
        }
        guard let lower = saturatingDecimal(first) else { return .whole }
        var upper = length - 1
        if !last.isEmpty {
            // RFC 9110 §14.1.2: a last-byte-pos past the end means the end, however many digits it has.
            guard let value = saturatingDecimal(last), value >= lower else { return .whole }
            upper = min(value, length - 1)
        }
        guard lower < length else { return .unsatisfiable }
        return .partial(lower: lower, upper: upper)
    }

    /// What a 200 response for a body of `length` bytes becomes under the request's Range and If-Range:
    /// the status and the bytes `lower ..< lower + count` to send (Content-Range and Accept-Ranges set
    /// in `headers`), or nil for 416 (its `Content-Range: bytes */length` set).
    static func select(_ request: HTTPRequest, length: Int, headers: inout HTTPHeaders) -> (status: HTTPStatus, lower: Int, count: Int)? {
        choose(request, length: length, headers: &headers).map { ($0.partial ? .partialContent : .ok, $0.lower, $0.count) }
    }

    /// `select`'s choice with a flag for the 206 rather than a status, which carries its reason phrase's
    /// string (a release on every request through `apply`).
    private static func choose(_ request: HTTPRequest, length: Int, headers: inout HTTPHeaders) -> (partial: Bool, lower: Int, count: Int)? {
        if !headers.contains(.acceptRanges) { headers.add(.acceptRanges, "bytes") }
        // Most requests have no Range, and then If-Range does not matter either.
        guard let range = request.headers[.range] else { return (false, 0, length) }
        guard ifRangeHolds(request, for: headers) else { return (false, 0, length) }
        switch outcome(header: range, length: length) {
        case .whole:
            return (false, 0, length)
        case .partial(let lower, let upper):
            headers[.contentRange] = "bytes \(lower)-\(upper)/\(length)"
            return (true, lower, upper - lower + 1)
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(length)"
            return nil
        }
    }

    /// RFC 9110 §13.1.5: a Range with an If-Range is honoured only when the validator matches the
    /// response's own (a strong ETag, or the exact Last-Modified date); otherwise the whole body is sent.
    static func ifRangeHolds(_ request: HTTPRequest, for headers: HTTPHeaders) -> Bool {
        guard let validator = request.headers[.ifRange] else { return true }
        if validator.hasPrefix("\"") { return headers[.etag] == validator }
        return headers[.lastModified] == validator
    }

    /// Whether a Range header is one single range worth sending upstream; multi-range and malformed
    /// values are not (the whole body is served instead, RFC 9110 §14.2).
    static func isForwardable(_ header: String) -> Bool {
        outcome(header: header, length: Int.max / 2) != .whole
    }

    /// Applies the request's Range header to a whole 200 response whose body the proxy holds: bytes in
    /// memory, or a file region (sliced, still sent from the file).
    static func apply(to response: inout HTTPResponse, request: HTTPRequest) {
        // By code: a status's equality compares its reason phrase too.
        guard response.status.code == 200 else { return }
        let length: Int
        switch response.body {
        case .bytes(let body): length = body.count
        case .file(let region): length = region.length
        case .empty, .stream: return
        }
        guard let (partial, lower, count) = choose(request, length: length, headers: &response.headers) else {
            response.status = .rangeNotSatisfiable
            response.body = .empty
            return
        }
        guard partial else { return }
        response.status = .partialContent
        switch response.body {
        case .bytes(let body): response.body = .bytes(Array(body[lower..<(lower + count)]))
        case .file(let region):
            response.body = HTTPFileRegion(file: region.file, offset: region.offset + lower, length: count).map(HTTPBody.file) ?? .empty
        case .empty, .stream: break
        }
    }


    /// Reads a `Content-Range: bytes first-last/length` value (RFC 9110 §14.4); `length` is nil for
    /// `*` (unknown). Nil when malformed or when the bounds contradict each other.
    static func contentRange(_ value: String) -> (first: Int, last: Int, length: Int?)? {
        let text = value.trimmingWhitespace()
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = text.dropFirst(6).trimmingWhitespace()
        guard let slash = spec.firstIndex(of: "/"), let dash = spec[..<slash].firstIndex(of: "-"),
              let first = decimal(spec[..<dash]), let last = decimal(spec[spec.index(after: dash)..<slash]),
              first <= last else { return nil }
        let total = spec[spec.index(after: slash)...]
        if total == "*" { return (first, last, nil) }
        guard let length = decimal(total), last < length else { return nil }
        return (first, last, length)
    }

    /// Digits as a number, any count of them: a value past `Int.max` becomes `Int.max`, which is past
    /// the end of any body (so a first-byte-pos that large is unsatisfiable, a last-byte-pos the end).
    private static func saturatingDecimal<S: StringProtocol>(_ text: S) -> Int? {
        guard !text.isEmpty else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times.addingReportingOverflow(Int(byte &- 0x30))
            value = overflowA || overflowB ? Int.max : sum
        }
        return value
    }

    private static func decimal<S: StringProtocol>(_ text: S) -> Int? {
        guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> SubSequence {
        var start = startIndex
        var end = endIndex
        while start < end, self[start] == " " || self[start] == "\t" { start = index(after: start) }
        while end > start, self[index(before: end)] == " " || self[index(before: end)] == "\t" { end = index(before: end) }
        return self[start..<end]
    }
}
