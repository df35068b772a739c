import HTTPServer
import HTTPWire

extension DiskCacheResponder {
    /// Bytes of an origin range on their way to the client: read back from the piece that is storing
    /// them, or relayed from the origin stream when the cache does not take them.
    enum OriginRangeSource: Sendable {
        /// Read back from the piece fill copying the origin stream (which runs whether or not the
        /// client stays).
        case storing(DiskCacheReader)
        /// Relayed straight from the origin stream.
        case direct(OriginStream)

        /// Writes the range's `count` bytes to the client.
        func send(count: Int, to writer: HTTPBodyWriter) async throws {
            switch self {
            case .storing(let reader): try await reader.read(from: 0, count: count) { try await writer.write($0) }
            case .direct(let stream): try await PassThroughResponder.relay(stream, skip: 0, take: count, to: writer)
            }
        }
    }

    /// Starts storing an origin 206 to a GET as a piece (see `storePiece`) and answers the client from
    /// it as it is written; nil leaves the stream to be relayed as usual.
    func startPieceFill(_ stream: OriginStream, target: OriginTarget, request: HTTPRequest, fields: HTTPHeaders) throws -> HTTPResponse? {
        guard request.method == .get, stream.status == 206,
              let range = fields[.contentRange].flatMap(ByteRangeRequest.contentRange), let total = range.length else { return nil }
        let key = self.key(target, request: request)
        guard let reader = storePiece(stream, target: target, key: key, first: range.first, last: range.last, objectLength: total, fields: fields) else { return nil }
        let count = range.last - range.first + 1
        return HTTPResponse(status: .partialContent, headers: fields, body: .stream(length: count, producer: { writer in
            try await reader.read(from: 0, count: count) { try await writer.write($0) }
        }))
    }

    /// Starts copying `first...last` of an object of `objectLength` bytes from `stream` into a piece, and
    /// returns a reader that follows the copy. The cache takes only a body that is exactly the range
    /// (RFC 9110 §14.4), not content-encoded (the range would be of the encoded bytes) and not marked
    /// no-store (RFC 9111 §5.2.2.5), within the budget; otherwise nil and the caller relays the stream.
    func storePiece(_ stream: OriginStream, target: OriginTarget, key: String, first: Int, last: Int, objectLength: Int, fields: HTTPHeaders) -> DiskCacheReader? {
        guard first >= 0, first <= last, last < objectLength else {
            logPieces(target, "piece not filled: range outside the object", [("range", "\(first)-\(last)/\(objectLength)")])
            return nil
        }
        let count = last - first + 1
        if let reason = Self.pieceFillRefusal(stream, count: count, fields: fields) {
            logPieces(target, "piece not filled: \(reason)", [("range", "\(first)-\(last)/\(objectLength)")])
            return nil
        }
        var stored: [(name: String, value: String)] = []
        for name in PassThroughResponder.passedOnFields where name != .contentRange {
            for value in fields.values(name) { stored.append((name.text, value)) }
        }
        let entry = DiskCacheEntry(key: key, length: count, fields: stored, piece: DiskCachePlacement(offset: first, objectLength: objectLength))
        guard let fill = cache.fills.begin(entry) else {
            logPieces(target, "piece not filled: over budget or already filling", [("range", "\(first)-\(last)/\(objectLength)")])
            return nil
        }
        guard let reader = fill.makeReader() else {
            cache.fills.abandon(fill)
            logPieces(target, "piece not filled: its file could not be opened", [("range", "\(first)-\(last)/\(objectLength)")])
            return nil
        }
        logPieces(target, "piece fill", [("range", "\(first)-\(last)/\(objectLength)"), ("bytes", String(count))])
        fill.start(stream)
        return reader
    }

    /// Why an origin 206 of `count` bytes is not stored as a piece, or nil when it may be.
    static func pieceFillRefusal(_ stream: OriginStream, count: Int, fields: HTTPHeaders) -> String? {
        if let length = stream.bodyLength, length != count { return "body length is not the range's" }
        if fields.contains(.contentEncoding) { return "content-encoded" }
        if fields.values(.cacheControl).contains(where: { $0.lowercased().contains("no-store") }) { return "no-store" }
        return nil
    }

    /// Asks the origin for `lower...upper` of the object `version` is a piece of, with the headers a
    /// pass-through request carries. `If-Range` makes an origin whose object changed answer 200 with
    /// the new whole body instead of a range of other bytes (RFC 9110 §13.1.5).
    func fetchMissingRange(_ lower: Int, _ upper: Int, of version: DiskCacheEntry, target: OriginTarget, request: HTTPRequest) async throws -> (OriginStream, Double) {
        var headers = HTTPHeaders()
        headers[.range] = "bytes=\(lower)-\(upper)"
        if let validator = version.validator { headers[.ifRange] = validator }
        return try await fetcher.openStream(target, method: .get, everyHopHeaders: headers, request: request)
    }

    /// Whether an origin answer is exactly `lower...upper` of the same version as `version`: a 206 whose
    /// Content-Range has those bounds and the same object length, whose validator matches, with a body
    /// that is not encoded. Anything else must not be joined to stored bytes.
    static func isRange(_ stream: OriginStream, lower: Int, upper: Int, of version: DiskCacheEntry) -> Bool {
        guard stream.status == 206, let validator = version.validator,
              let range = stream.headers[.contentRange].flatMap(ByteRangeRequest.contentRange),
              range.first == lower, range.last == upper, range.length == version.objectLength,
              stream.bodyLength.map({ $0 == upper - lower + 1 }) ?? true,
              !stream.headers.contains(.contentEncoding) else { return false }
        let fields = [HTTPFieldName.etag, .lastModified].compactMap { name in stream.headers[name].map { (name: name.text, value: $0) } }
        return DiskCacheEntry.validator(in: fields) == validator
    }

    /// The source for an origin range whose answer was checked with `isRange`: stored as a new piece
    /// while it is relayed when the cache takes it.
    func source(for stream: OriginStream, target: OriginTarget, lower: Int, upper: Int, of version: DiskCacheEntry) -> OriginRangeSource {
        let fields = PassThroughResponder.passedOnHeaders(stream, target: target)
        if let reader = storePiece(stream, target: target, key: version.key, first: lower, last: upper, objectLength: version.objectLength, fields: fields) {
            return .storing(reader)
        }
        return .direct(stream)
    }
}
