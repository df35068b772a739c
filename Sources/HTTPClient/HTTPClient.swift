import HTTPWire

/// A small HTTP/1.1 client for http and https origins: one exchange per call, on a new connection or
/// one kept alive in an `HTTPConnectionPool`, exact about headers, with a connect timeout, a total
/// deadline, a body cap and prompt cancellation. Each exchange blocks in poll(2) on its own thread,
/// never on the Swift concurrency pool.
public struct HTTPClient: Sendable {
    /// Sends `request` and returns the complete response.
    /// - Parameters:
    ///   - connectTimeout: how long resolving and connecting may take.
    ///   - deadline: how long the whole exchange may take, connect included.
    ///   - maxBodyBytes: the largest body accepted; more is `.bodyTooLarge`.
    ///   - pool: where idle connections are taken from and returned to; nil: a new connection that
    ///     the request asks the origin to close (`Connection: close`).
    ///   - slots: the ceiling this exchange counts against; all taken: `.tooManyExchanges` at once.
    public static func send(
        _ request: HTTPClientRequest,
        connectTimeout: Duration,
        deadline: Duration,
        maxBodyBytes: Int,
        pool: HTTPConnectionPool? = nil,
        slots: HTTPExchangeSlots? = nil
    ) async throws(HTTPClientError) -> HTTPClientResponse {
        let head = try makeRequestHead(request, keepAlive: pool != nil)
        // The slot comes first: a refused exchange opens no descriptor and starts no thread.
        if let slots, !slots.acquire() { throw .tooManyExchanges(limit: slots.limit) }
        let start = MonotonicTime.now()
        let cancellation = HTTPClientCancellation()
        let result: Result<HTTPClientResponse, HTTPClientError> = await HTTPClientThread.exchange(cancellation, releasing: slots, deliveryIsLast: true) { deliver in
            deliver(Result { () throws(HTTPClientError) -> HTTPClientResponse in
                try exchange(
                    request,
                    head: head,
                    connectDeadline: start + connectTimeout,
                    deadline: start + deadline,
                    maxBodyBytes: max(0, maxBodyBytes),
                    cancellation: cancellation,
                    pool: pool
                )
            })
        }
        return try result.get()
    }

    /// One blocking exchange on the calling thread: connect (or reuse), write the head, read the response.
    static func exchange(
        _ request: HTTPClientRequest,
        head: [UInt8],
        connectDeadline: MonotonicTime,
        deadline: MonotonicTime,
        maxBodyBytes: Int,
        cancellation: HTTPClientCancellation,
        pool: HTTPConnectionPool?
    ) throws(HTTPClientError) -> HTTPClientResponse {
        var exchange = try HTTPClientExchange.start(
            request, head: head, connectDeadline: connectDeadline, deadline: deadline, cancellation: cancellation,
            pool: pool, source: { $0 })
        let body: [UInt8]
        do throws(HTTPClientError) {
            body = try exchange.reader.readBody(exchange.framing, limit: maxBodyBytes)
        } catch {
            exchange.connection.close()
            throw error
        }
        let responseHead = exchange.head
        HTTPClientExchange.release(exchange)
        return HTTPClientResponse(
            version: responseHead.version,
            status: responseHead.status,
            reasonPhrase: responseHead.reasonPhrase,
            headers: responseHead.headers,
            body: body
        )
    }
}
