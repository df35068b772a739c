/// A small HTTP/1.1 client for http and https origins: one exchange per call, exact about headers,
/// with a connect timeout, a total deadline, a body cap and prompt cancellation. Each exchange
/// blocks in poll(2) on its own thread, never on the Swift concurrency pool.
public struct HTTPClient: Sendable {
    /// Sends `request` and returns the complete response.
    /// - Parameters:
    ///   - connectTimeout: how long resolving and connecting may take.
    ///   - deadline: how long the whole exchange may take, connect included.
    ///   - maxBodyBytes: the largest body accepted; more is `.bodyTooLarge`.
    public static func send(
        _ request: HTTPClientRequest,
        connectTimeout: Duration,
        deadline: Duration,
        maxBodyBytes: Int
    ) async throws(HTTPClientError) -> HTTPClientResponse {
        let head = try makeRequestHead(request)
        let start = ContinuousClock.now
        let cancellation = HTTPClientCancellation()
        let result: Result<HTTPClientResponse, HTTPClientError> = await HTTPClientThread.exchange(cancellation) { deliver in
            deliver(Result { () throws(HTTPClientError) -> HTTPClientResponse in
                try exchange(
                    request,
                    head: head,
                    connectDeadline: start + connectTimeout,
                    deadline: start + deadline,
                    maxBodyBytes: max(0, maxBodyBytes),
                    cancellation: cancellation
                )
            })
        }
        return try result.get()
    }

    /// One blocking exchange on the calling thread: connect, write the head, read the response.
    static func exchange(
        _ request: HTTPClientRequest,
        head: [UInt8],
        connectDeadline: ContinuousClock.Instant,
        deadline: ContinuousClock.Instant,
        maxBodyBytes: Int,
        cancellation: HTTPClientCancellation
    ) throws(HTTPClientError) -> HTTPClientResponse {
        let connection = try HTTPClientConnection.open(
            for: request,
            connectDeadline: connectDeadline,
            deadline: deadline,
            cancellation: cancellation
        )
        defer { connection.close() }
        try connection.send(head)
        var reader = HTTPResponseReader(source: connection)
        let responseHead = try reader.readHead()
        let framing = try HTTPBodyFraming.of(method: request.method, status: responseHead.status, headers: responseHead.headers)
        let body = try reader.readBody(framing, limit: maxBodyBytes)
        return HTTPClientResponse(
            version: responseHead.version,
            status: responseHead.status,
            reasonPhrase: responseHead.reasonPhrase,
            headers: responseHead.headers,
            body: body
        )
    }
}
