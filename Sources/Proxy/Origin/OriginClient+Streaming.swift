import HTTPServer

extension OriginClient {
    /// Fetches `request.url` and returns once the response head is in; the body streams after it.
    /// Redirects are followed as `fetch` follows them (every hop passes `allowRedirect`, credentials
    /// never cross origins). Streams are never shared: `maxBodyBytes` caps the body, and the
    /// configured total timeout covers the heads while the idle timeout covers the body.
    public func stream(_ request: OriginRequest) async throws(OriginError) -> OriginStream {
        guard request.method == .get || request.method == .head else {
            throw .invalidRequest("only GET and HEAD are fetched")
        }
        return try await followRedirects(request) { hop throws(OriginError) in
            try await streamOnce(hop, request: request)
        }.response
    }

    /// One streamed request to one URL, dispatched on the scheme.
    private func streamOnce(_ hop: Hop, request: OriginRequest) async throws(OriginError) -> OriginStream {
        switch hop.url.scheme {
        case "http":
            return try await streamPlain(hop.url, request: request, headers: hop.headers, deadline: hop.deadline)
        case "https":
            return try await secureTransport.stream(
                hop.url, request: request, headers: makeRequestHeaders(hop.headers), deadline: hop.deadline,
                idleTimeout: configuration.totalTimeout)
        case "file":
            return OriginStream(try readFile(hop.url, request: request))
        default:
            throw .invalidRequest("unsupported URL scheme")
        }
    }

    /// Plain http through `HTTPClient.stream`. The body is passed on as sent: asking for identity
    /// keeps Content-Length meaningful for Range and the cache.
    private func streamPlain(_ url: OriginURL, request: OriginRequest, headers given: HTTPHeaders, deadline: ContinuousClock.Instant) async throws(OriginError) -> OriginStream {
        guard let endpoint = url.endpoint(defaultPort: 80) else { throw .invalidRequest("bad or credential-carrying authority") }
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { throw .timeout }
        var headers = makeRequestHeaders(given)
        headers.add("Accept-Encoding", "identity")
        let clientRequest = HTTPClientRequest(method: request.method, host: endpoint.host, port: endpoint.port, target: url.requestTarget, headers: headers)
        let response: HTTPClientStreamingResponse
        do {
            response = try await HTTPClient.stream(
                clientRequest, connectTimeout: configuration.connectTimeout, headTimeout: remaining,
                idleTimeout: configuration.totalTimeout, maxBodyBytes: max(0, request.maxBodyBytes))
        } catch {
            throw OriginError(error)
        }
        let body = response.body
        return OriginStream(
            status: response.status, headers: OriginClient.removingHopByHopFields(response.headers), finalURL: url.string,
            bodyLength: response.bodyLength,
            next: { () async throws(OriginError) -> [UInt8]? in
                do throws(HTTPClientError) { return try await body.next() } catch { throw OriginError(error) }
            },
            cancel: { body.cancel() })
    }
}
