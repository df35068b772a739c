import HTTPClient
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
        case "http", "https":
            return try await streamHTTP(hop, request: request)
        case "file":
            return OriginStream(try readFile(hop.url, request: request))
        default:
            throw .invalidRequest("unsupported URL scheme")
        }
    }

    /// http or https through `HTTPClient.stream`. The body is passed on as sent: asking for identity
    /// keeps Content-Length meaningful for Range and the cache.
    private func streamHTTP(_ hop: Hop, request: OriginRequest) async throws(OriginError) -> OriginStream {
        let url = hop.url
        let (clientRequest, remaining) = try prepareHop(hop, request: request, acceptEncoding: "identity")
        let response: HTTPClientStreamingResponse
        do {
            response = try await HTTPClient.stream(
                clientRequest, connectTimeout: configuration.connectTimeout, headTimeout: remaining,
                idleTimeout: configuration.totalTimeout, maxBodyBytes: max(0, request.maxBodyBytes),
                pool: connections, slots: exchangeSlots)
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
