import HTTPWire

extension HTTPClient {
    /// Sends `request` and returns as soon as the response head is in; the body follows through
    /// `response.body` with backpressure (at most about `bufferBytes` read ahead of the consumer).
    /// - Parameters:
    ///   - connectTimeout: how long resolving and connecting may take.
    ///   - headTimeout: how long until the whole response head is in, connect included.
    ///   - idleTimeout: how long the origin may stay silent while the body is read (waiting for a
    ///     slow consumer does not count).
    ///   - maxBodyBytes: the largest body accepted; more ends the stream with `.bodyTooLarge`.
    ///   - pool: where idle connections are taken from and returned to (once the consumer has read the
    ///     whole body); nil: a new connection that the request asks the origin to close.
    ///   - slots: the ceiling this exchange counts against until its body is read or abandoned; all
    ///     taken: `.tooManyExchanges` at once.
    public static func stream(
        _ request: HTTPClientRequest,
        connectTimeout: Duration,
        headTimeout: Duration,
        idleTimeout: Duration,
        maxBodyBytes: Int = .max,
        bufferBytes: Int = 256 * 1024,
        pool: HTTPConnectionPool? = nil,
        slots: HTTPExchangeSlots? = nil
    ) async throws(HTTPClientError) -> HTTPClientStreamingResponse {
        let head = try makeRequestHead(request, keepAlive: pool != nil)
        // The slot comes first: a refused exchange opens no descriptor and starts no thread.
        if let slots, !slots.acquire() { throw .tooManyExchanges(limit: slots.limit) }
        let start = MonotonicTime.now()
        let cancellation = HTTPClientCancellation()
        let channel = HTTPClientBodyChannel(bufferLimit: bufferBytes, cancellation: cancellation)
        let result: Result<HTTPClientStreamingResponse, HTTPClientError> = await HTTPClientThread.exchange(cancellation, releasing: slots) { deliver in
            streamExchange(
                request, head: head, start: start,
                timeouts: (connectTimeout, headTimeout, idleTimeout), maxBodyBytes: max(0, maxBodyBytes),
                body: channel, cancellation: cancellation, pool: pool, deliverHead: deliver)
        }
        return try result.get()
    }

    /// The blocking side of `stream`: delivers the head once, then pushes body pieces until the end,
    /// an error, or cancellation. A connection that may be reused waits with the body's end until the
    /// consumer reaches it; an empty body frees it before the head goes out.
    private static func streamExchange(
        _ request: HTTPClientRequest,
        head: [UInt8],
        start: MonotonicTime,
        timeouts: (connect: Duration, head: Duration, idle: Duration),
        maxBodyBytes: Int,
        body: HTTPClientBodyChannel,
        cancellation: HTTPClientCancellation,
        pool: HTTPConnectionPool?,
        deliverHead: (Result<HTTPClientStreamingResponse, HTTPClientError>) -> Void
    ) {
        var exchange: HTTPClientExchange<IdleDeadlineSource>
        do throws(HTTPClientError) {
            exchange = try HTTPClientExchange.start(
                request, head: head, connectDeadline: start + timeouts.connect, deadline: start + timeouts.head,
                cancellation: cancellation, pool: pool, source: { IdleDeadlineSource(connection: $0, idle: nil) })
        } catch {
            body.finish(error)
            deliverHead(.failure(error))
            return
        }
        let length: Int?
        var endsBeforeClose = true
        switch exchange.framing {
        case .none: length = 0
        case .contentLength(let declared): length = declared
        case .chunked: length = nil
        case .untilClose: (length, endsBeforeClose) = (nil, false)
        }
        if let length, length > maxBodyBytes {
            exchange.connection.close()
            body.finish(.bodyTooLarge(limit: maxBodyBytes))
            deliverHead(.failure(.bodyTooLarge(limit: maxBodyBytes)))
            return
        }
        let responseHead = exchange.head
        let mayBeKept = pool != nil && endsBeforeClose && responseHead.allowsReuse
        // Made at delivery, never held here: the consumer dropping the stream is what cancels it.
        func deliver() {
            deliverHead(.success(HTTPClientStreamingResponse(
                version: responseHead.version, status: responseHead.status, reasonPhrase: responseHead.reasonPhrase,
                headers: responseHead.headers, bodyLength: length, body: HTTPClientBodyStream(channel: body),
                connectionMayBeKept: mayBeKept)))
        }
        if length == 0 {
            // Nothing for the consumer to read: the connection is free before anyone waits for it.
            HTTPClientExchange.release(exchange)
            body.finish(nil)
            deliver()
            return
        }
        deliver()
        exchange.reader.source.idle = timeouts.idle
        do throws(HTTPClientError) {
            try exchange.reader.streamBody(exchange.framing, limit: maxBodyBytes) { (piece: ArraySlice<UInt8>) throws(HTTPClientError) in
                try body.push(piece)
            }
        } catch {
            exchange.connection.close()
            body.finish(error)
            return
        }
        if let pool = exchange.pool, exchange.isReusable {
            body.finish(keeping: exchange.connection, in: pool, for: exchange.endpoint)
        } else {
            exchange.connection.close()
            body.finish(nil)
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
        if let idle { connection.deadline = .now() + idle }
        return try connection.receive(into: &buffer, limit: limit)
    }
}
