import HTTPClient
import HTTPServer
import HTTPWire

/// The http and https side of the origin client: one request per hop through `HTTPClient`, over the
/// pooled connections, under the ceiling on exchanges in flight, with our TLS context for https.
struct OriginHTTPExchanges: Sendable {
    /// Whether bodies with Content-Encoding: gzip are decoded here (see `GzipDecoder`).
    static let acceptsGzip = GzipDecoder.isAvailable

    /// How long resolving and connecting may take.
    let connectTimeout: Duration
    /// How long a streamed body may go without a byte.
    let idleTimeout: Duration
    /// The fields sent and kept on each hop.
    let headerPolicy: OriginHeaderPolicy
    /// Shared by every https exchange; OpenSSL is loaded by the first one, not here.
    let tlsContext: TLSContext
    /// Idle http and https connections to origins, reused by the next fetch or stream to the same one.
    let connections: HTTPConnectionPool
    /// The ceiling on exchanges in flight.
    let slots: HTTPExchangeSlots

    /// The client request for one http or https hop: the endpoint with the scheme's default port
    /// (RFC 9110 §4.2: 80 and 443), our TLS context for https, and the fields the client owns.
    func makeClientRequest(_ url: OriginURL, method: HTTPMethod, headers: HTTPHeaders, addresses: [IPAddress]?) throws(OriginError) -> HTTPClientRequest {
        let secure = url.scheme == "https"
        guard let endpoint = url.endpoint(defaultPort: secure ? 443 : 80) else {
            throw .invalidRequest("bad or credential-carrying authority")
        }
        var request = HTTPClientRequest(
            method: method, host: endpoint.host, port: endpoint.port, target: url.requestTarget, headers: headers,
            tls: secure ? tlsContext : nil)
        request.addresses = addresses
        return request
    }

    /// The client request for one hop with our fields and the given Accept-Encoding, and the time
    /// left for it; `.timeout` when none is.
    func prepareHop(
        _ hop: OriginHop, request: OriginRequest, acceptEncoding: String
    ) throws(OriginError) -> (request: HTTPClientRequest, remaining: Duration) {
        var headers = headerPolicy.requestHeaders(hop.headers)
        headers.add(.acceptEncoding, acceptEncoding)
        let clientRequest = try makeClientRequest(hop.url, method: request.method, headers: headers, addresses: hop.addresses)
        let remaining = hop.deadline - MonotonicTime.now()
        guard remaining > .zero else { throw .timeout }
        return (clientRequest, remaining)
    }

    /// An http or https request through `HTTPClient`, gzip decoded under the same size cap.
    func fetch(_ hop: OriginHop, request: OriginRequest) async throws(OriginError) -> OriginResponse {
        let url = hop.url
        let (clientRequest, remaining) = try prepareHop(
            hop, request: request, acceptEncoding: Self.acceptsGzip ? "gzip" : "identity")
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient.send(
                clientRequest,
                connectTimeout: connectTimeout,
                deadline: remaining,
                maxBodyBytes: request.maxBodyBytes,
                pool: connections,
                slots: slots
            )
        } catch {
            throw OriginError(error)
        }
        var responseHeaders = OriginHeaderPolicy.removingHopByHopFields(response.headers)
        var body = response.body
        if let coding = responseHeaders[.contentEncoding]?.lowercased(), coding != "identity", request.method != .head {
            guard coding == "gzip" || coding == "x-gzip" else { throw .badResponse("unsupported Content-Encoding") }
            // The body may legitimately be empty (204, 304); there is nothing to decode then.
            if !body.isEmpty {
                body = try GzipDecoder.decode(body, maxOutputBytes: request.maxBodyBytes)
            }
            responseHeaders.remove(.contentEncoding)
            responseHeaders.remove(.contentLength)
        }
        return OriginResponse(status: response.status, headers: responseHeaders, body: body, finalURL: url.string)
    }

    /// http or https through `HTTPClient.stream`. The body is passed on as sent: asking for identity
    /// keeps Content-Length meaningful for Range and the cache.
    func stream(_ hop: OriginHop, request: OriginRequest) async throws(OriginError) -> OriginStream {
        let url = hop.url
        let (clientRequest, remaining) = try prepareHop(hop, request: request, acceptEncoding: "identity")
        let response: HTTPClientStreamingResponse
        do {
            response = try await HTTPClient.stream(
                clientRequest, connectTimeout: connectTimeout, headTimeout: remaining,
                idleTimeout: idleTimeout, maxBodyBytes: max(0, request.maxBodyBytes),
                pool: connections, slots: slots)
        } catch {
            throw OriginError(error)
        }
        let body = response.body
        return OriginStream(
            status: response.status, headers: OriginHeaderPolicy.removingHopByHopFields(response.headers), finalURL: url.string,
            bodyLength: response.bodyLength, connectionMayBeKept: response.connectionMayBeKept,
            next: { () async throws(OriginError) -> [UInt8]? in
                do throws(HTTPClientError) { return try await body.next() } catch { throw OriginError(error) }
            },
            cancel: { body.cancel() })
    }
}
