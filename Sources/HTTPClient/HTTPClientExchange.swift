import HTTPWire

/// One request on one connection, up to its response head: the connection (pooled or new), the
/// reader holding whatever followed the head, and how the body is framed. Whoever holds it reads
/// the body, then either `release`s the connection or closes it.
struct HTTPClientExchange<Source: HTTPByteSource> {
    let connection: HTTPClientConnection
    var reader: HTTPResponseReader<Source>
    let head: HTTPResponseHead
    let framing: HTTPBodyFraming
    /// The pool the connection goes back to, and under which endpoint; nil: it is closed after use.
    let pool: HTTPConnectionPool?
    let endpoint: HTTPConnectionEndpoint

    /// Sends `requestHead` and reads the response head, on an idle connection from `pool` when one is
    /// open and quiet, else on a new one. RFC 9112 §9.3.1: when a reused connection fails before any
    /// byte of the response (the origin closed it as the request went out), the request is sent once
    /// more on a new connection; GET and HEAD are idempotent. A new connection is never retried.
    static func start(
        _ request: HTTPClientRequest,
        head requestHead: [UInt8],
        connectDeadline: MonotonicTime,
        deadline: MonotonicTime,
        cancellation: HTTPClientCancellation,
        pool: HTTPConnectionPool?,
        source: (HTTPClientConnection) -> Source
    ) throws(HTTPClientError) -> HTTPClientExchange {
        if let pool {
            // A vetted request reuses only a connection to one of its own addresses.
            for endpoint in HTTPConnectionEndpoint.candidates(for: request) {
                reuse: while let idle = pool.takeIdle(for: endpoint) {
                    guard idle.isOpenAndQuiet() else {
                        idle.close()
                        continue
                    }
                    idle.adopt(deadline: deadline, cancellation: cancellation)
                    switch attempt(on: idle, requestHead, request: request, pool: pool, endpoint: endpoint, source: source) {
                    case (.success(let exchange), _): return exchange
                    case (.failure(.connectionLost), false) where request.method.isIdempotent: break reuse
                    case (.failure(let error), _): throw error
                    }
                }
            }
        }
        let connection = try HTTPClientConnection.open(
            for: request, connectDeadline: connectDeadline, deadline: deadline, cancellation: cancellation)
        // Pooled under the address actually connected, when the request named its addresses.
        let endpoint = HTTPConnectionEndpoint(request, address: request.addresses == nil ? nil : connection.peer)
        return try attempt(on: connection, requestHead, request: request, pool: pool, endpoint: endpoint, source: source).0.get()
    }

    /// Sends the head and reads the response head on `connection`, closing it on failure; also says
    /// whether any response byte had arrived.
    private static func attempt(
        on connection: HTTPClientConnection,
        _ requestHead: [UInt8],
        request: HTTPClientRequest,
        pool: HTTPConnectionPool?,
        endpoint: HTTPConnectionEndpoint,
        source: (HTTPClientConnection) -> Source
    ) -> (Result<HTTPClientExchange, HTTPClientError>, answered: Bool) {
        var reader = HTTPResponseReader(source: source(connection))
        do throws(HTTPClientError) {
            try connection.send(requestHead)
            let head = try reader.readHead()
            let framing = try HTTPBodyFraming.of(method: request.method, status: head.status, headers: head.headers)
            let exchange = HTTPClientExchange(
                connection: connection, reader: reader, head: head, framing: framing, pool: pool, endpoint: endpoint)
            return (.success(exchange), true)
        } catch {
            connection.close()
            return (.failure(error), reader.receivedAny)
        }
    }

    /// Whether the connection can carry another request once the body has been read to its end: the
    /// framing marked the end, the origin allows it, and nothing arrived beyond the response.
    var isReusable: Bool {
        framing.endsBeforeClose && head.allowsReuse && reader.buffered == 0 && !reader.reachedEnd
    }

    /// After the whole body was read: the connection goes back to the pool when it may, else it is
    /// closed. The exchange is given up (`sending`): its connection may serve another thread next.
    static func release(_ exchange: sending HTTPClientExchange) {
        if let pool = exchange.pool, exchange.isReusable {
            pool.keep(exchange.connection, for: exchange.endpoint)
        } else {
            exchange.connection.close()
        }
    }
}
