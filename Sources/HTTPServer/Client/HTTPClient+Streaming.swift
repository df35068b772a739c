extension HTTPClient {
    /// Sends `request` and returns as soon as the response head is in; the body follows through
    /// `response.body` with backpressure (at most about `bufferBytes` read ahead of the consumer).
    /// - Parameters:
    ///   - connectTimeout: how long resolving and connecting may take.
    ///   - headTimeout: how long until the whole response head is in, connect included.
    ///   - idleTimeout: how long the origin may stay silent while the body is read (waiting for a
    ///     slow consumer does not count).
    ///   - maxBodyBytes: the largest body accepted; more ends the stream with `.bodyTooLarge`.
    public static func stream(
        _ request: HTTPClientRequest,
        connectTimeout: Duration,
        headTimeout: Duration,
        idleTimeout: Duration,
        maxBodyBytes: Int = .max,
        bufferBytes: Int = 256 * 1024
    ) async throws(HTTPClientError) -> HTTPClientStreamingResponse {
        let head = try makeRequestHead(request)
        let start = ContinuousClock.now
        let cancellation = HTTPClientCancellation()
        let channel = HTTPClientBodyChannel(bufferLimit: bufferBytes, cancellation: cancellation)
        let result: Result<HTTPClientStreamingResponse, HTTPClientError> = await HTTPClientThread.exchange(cancellation) { deliver in
            streamExchange(
                request, head: head, start: start,
                timeouts: (connectTimeout, headTimeout, idleTimeout), maxBodyBytes: max(0, maxBodyBytes),
                body: channel, cancellation: cancellation, deliverHead: deliver)
        }
        return try result.get()
    }

    /// The blocking side of `stream`: delivers the head once, then pushes body pieces until the end,
    /// an error, or cancellation.
    private static func streamExchange(
        _ request: HTTPClientRequest,
        head: [UInt8],
        start: ContinuousClock.Instant,
        timeouts: (connect: Duration, head: Duration, idle: Duration),
        maxBodyBytes: Int,
        body: HTTPClientBodyChannel,
        cancellation: HTTPClientCancellation,
        deliverHead: (Result<HTTPClientStreamingResponse, HTTPClientError>) -> Void
    ) {
        let connection: HTTPClientConnection
        let framing: HTTPBodyFraming
        var reader: HTTPResponseReader<IdleDeadlineSource>
        do throws(HTTPClientError) {
            connection = try HTTPClientConnection.open(
                for: request,
                connectDeadline: start + timeouts.connect, deadline: start + timeouts.head, cancellation: cancellation)
            try connection.send(head)
            reader = HTTPResponseReader(source: IdleDeadlineSource(connection: connection, idle: nil))
            let responseHead = try reader.readHead()
            framing = try HTTPBodyFraming.of(method: request.method, status: responseHead.status, headers: responseHead.headers)
            var length: Int?
            switch framing {
            case .none: length = 0
            case .contentLength(let declared): length = declared
            case .chunked, .untilClose: length = nil
            }
            if let length, length > maxBodyBytes { throw .bodyTooLarge(limit: maxBodyBytes) }
            deliverHead(.success(HTTPClientStreamingResponse(
                version: responseHead.version, status: responseHead.status, reasonPhrase: responseHead.reasonPhrase,
                headers: responseHead.headers, bodyLength: length, body: HTTPClientBodyStream(channel: body))))
        } catch {
            body.finish(error)
            deliverHead(.failure(error))
            return
        }
        defer { connection.close() }
        reader.source.idle = timeouts.idle
        do throws(HTTPClientError) {
            try reader.streamBody(framing, limit: maxBodyBytes) { (piece: ArraySlice<UInt8>) throws(HTTPClientError) in
                try body.push(piece)
            }
            body.finish(nil)
        } catch {
            body.finish(error)
        }
    }
}

/// The connection as a byte source whose wait deadline restarts before every read once `idle` is set:
/// a long body may take as long as it takes, as long as the origin keeps sending.
final class IdleDeadlineSource: HTTPByteSource {
    let connection: HTTPClientConnection
    var idle: Duration?

    init(connection: HTTPClientConnection, idle: Duration?) {
        self.connection = connection
        self.idle = idle
    }

    func receive(into buffer: inout [UInt8], limit: Int) throws(HTTPClientError) -> Int {
        if let idle { connection.deadline = .now + idle }
        return try connection.receive(into: &buffer, limit: limit)
    }
}
