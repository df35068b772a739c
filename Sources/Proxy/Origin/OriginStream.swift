import HTTPServer
import HTTPWire

/// An origin's answer whose body arrives piece by piece, with backpressure: the origin is read only
/// as fast as `next()` is called. Cancelling it, or dropping it, ends the origin transfer.
public final class OriginStream: Sendable {
    /// The status code.
    public let status: Int
    /// End-to-end header fields (hop-by-hop fields removed; the body is passed on as the origin encoded it).
    public let headers: HTTPHeaders
    /// The URL that answered, after redirects.
    public let finalURL: String
    /// The body length when the origin stated it (Content-Length), else nil.
    public let bodyLength: Int?
    /// Whether the origin connection is kept for another request once the body is read to its end
    /// (false for a file, or an origin that closes it after this response).
    public let connectionMayBeKept: Bool
    private let nextPiece: @Sendable () async throws(OriginError) -> [UInt8]?
    private let stop: @Sendable () -> Void

    /// Makes a stream over a body source.
    init(
        status: Int, headers: HTTPHeaders, finalURL: String, bodyLength: Int?, connectionMayBeKept: Bool = false,
        next: @escaping @Sendable () async throws(OriginError) -> [UInt8]?, cancel: @escaping @Sendable () -> Void
    ) {
        self.status = status
        self.headers = headers
        self.finalURL = finalURL
        self.bodyLength = bodyLength
        self.connectionMayBeKept = connectionMayBeKept
        self.nextPiece = next
        self.stop = cancel
    }

    /// A stream over a body already in memory (file URLs).
    convenience init(_ response: OriginResponse) {
        let body = response.body
        let delivered = LockedFlag()
        self.init(
            status: response.status, headers: response.headers, finalURL: response.finalURL, bodyLength: body.count,
            next: { delivered.set() || body.isEmpty ? nil : body }, cancel: {})
    }

    deinit { stop() }

    /// The next piece of the body, nil at its end.
    public func next() async throws(OriginError) -> [UInt8]? {
        try await nextPiece()
    }

    /// Ends the origin transfer now.
    public func cancel() { stop() }

    /// A Content-Length value: digits only (surrounding whitespace allowed), no overflow; nil otherwise.
    static func contentLength(_ text: String) -> Int? {
        let digits = text.trimmingWhitespace()
        guard !digits.isEmpty, digits.count <= 18, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(digits)
    }
}
