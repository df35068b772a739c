import HTTPClient
import HTTPServer
import HTTPWire

extension OriginClient {
    /// Whether bodies with Content-Encoding: gzip are decoded here (see `GzipDecoder`).
    static let acceptsGzip = GzipDecoder.isAvailable

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
        _ hop: Hop, request: OriginRequest, acceptEncoding: String
    ) throws(OriginError) -> (request: HTTPClientRequest, remaining: Duration) {
        var headers = makeRequestHeaders(hop.headers)
        headers.add(.acceptEncoding, acceptEncoding)
        let clientRequest = try makeClientRequest(hop.url, method: request.method, headers: headers, addresses: hop.addresses)
        let deadline = hop.deadline
        let remaining = deadline - MonotonicTime.now()
        guard remaining > .zero else { throw .timeout }
        return (clientRequest, remaining)
    }

    /// An http or https request through `HTTPClient`, gzip decoded under the same size cap.
    func fetchHTTP(_ hop: Hop, request: OriginRequest) async throws(OriginError) -> OriginResponse {
        let url = hop.url
        let (clientRequest, remaining) = try prepareHop(
            hop, request: request, acceptEncoding: OriginClient.acceptsGzip ? "gzip" : "identity")
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient.send(
                clientRequest,
                connectTimeout: configuration.connectTimeout,
                deadline: remaining,
                maxBodyBytes: request.maxBodyBytes,
                pool: connections,
                slots: exchangeSlots
            )
        } catch {
            throw OriginError(error)
        }
        var responseHeaders = OriginClient.removingHopByHopFields(response.headers)
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
}
