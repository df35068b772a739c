import HTTPWire
/// The server's request-head parsing as one pure call, for fuzzing and offline checks: the same
/// scanner and parser the event loop runs, under the default limits.
public enum HTTPRequestHeadParsing {
    /// What a byte string amounts to as the start of a connection.
    public enum Outcome: Sendable {
        /// A complete, accepted head (`length` bytes of the input) and the declared body length.
        case request(HTTPRequest, length: Int, contentLength: Int, keepAlive: Bool)
        /// The head is refused with this status.
        case refused(HTTPStatus)
        /// No end of head yet.
        case incomplete
    }

    /// Scans and parses `bytes` as the first request on a connection.
    public static func parse(_ bytes: [UInt8], configuration: HTTPServerConfiguration = HTTPServerConfiguration()) -> Outcome {
        let limits = RequestLimits(configuration)
        do {
            var scanner = HeadScanner()
            switch scanner.scan(bytes.span, limits: limits) {
            case .needMore:
                return .incomplete
            case .failed(let error):
                return .refused(error.status)
            case .complete(let length):
                do throws(RequestError) {
                    let head = try RequestParser.parse(bytes.span.extracting(0..<length), limits: limits)
                    return .request(head.request, length: length, contentLength: head.contentLength, keepAlive: head.keepAlive)
                } catch {
                    return .refused(error.status)
                }
            }
        }
    }

    /// What bytes amount to as a chunked request body, read the way the event loop reads past one.
    public enum ChunkedBodyOutcome: Sendable, Equatable {
        /// The body ends after `used` bytes (the trailer section's empty line included).
        case complete(used: Int)
        /// The body is refused with this status.
        case refused(HTTPStatus)
        /// No end of body yet.
        case incomplete
    }

    /// Reads `bytes` as a chunked body fed in two pieces split at `split` (clamped to the input), as
    /// reads may split it anywhere; the outcome must not depend on where.
    public static func chunkedBody(_ bytes: [UInt8], split: Int = .max, configuration: HTTPServerConfiguration = HTTPServerConfiguration()) -> ChunkedBodyOutcome {
        let limits = RequestLimits(configuration)
        let cut = min(max(0, split), bytes.count)
        var discarder = ChunkedBodyDiscarder()
        var consumed = 0
        for piece in [bytes[..<cut], bytes[cut...]] {
            let progress = discarder.discard(piece.span, limits: limits)
            switch progress {
            case .needMore: consumed += piece.count
            case .complete(let used): return .complete(used: consumed + used)
            case .failed(let error): return .refused(error.status)
            }
        }
        return .incomplete
    }
}
