import HTTPClient
import HTTPServer
import HTTPWire

/// Walks a redirect chain for fetches and streams alike, so every hop passes the caller's checks
/// and the whole chain runs under one deadline.
struct OriginRedirectFollower: Sendable {
    /// RFC 9110 §15.4: the redirect statuses we follow for GET and HEAD.
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
    static let maxRedirects = 5

    /// How long the whole chain may take.
    let totalTimeout: Duration

    /// Sends `request` through `send` and follows redirects when the request asks for it. Every
    /// target is resolved against the URL that answered with it, must be http or https and pass
    /// `allowRedirect`; at most five hops, none to a URL already visited. Returns the last answer
    /// with the targets the chain went through (for callers joining a coalesced fetch).
    func follow<Response: OriginHopResponse>(
        _ request: OriginRequest, send: (OriginHop) async throws(OriginError) -> Response
    ) async throws(OriginError) -> (response: Response, redirectTargets: [String]) {
        let first = OriginURL(parsing: request.url)
        var hop = OriginHop(
            url: first, headers: request.headers(forHop: first), deadline: MonotonicTime.now() + totalTimeout,
            addresses: request.addresses)
        var visited: Set<String> = [first.string]
        var targets: [String] = []
        while true {
            if Task.isCancelled { throw .cancelled }
            let response = try await send(hop)
            guard request.followRedirects, Self.redirectStatuses.contains(response.status),
                  let location = response.headers[.location] else {
                return (response, targets)
            }
            response.discard()
            // RFC 9110 §10.2.2: a relative Location is resolved against the URL that was requested.
            let next = hop.url.resolving(OriginURL(parsing: location))
            guard next.scheme == "http" || next.scheme == "https" else { throw .redirectNotAllowed }
            guard targets.count < Self.maxRedirects, visited.insert(next.string).inserted else {
                throw .redirectLoop
            }
            guard request.allowRedirect(next.string) else { throw .redirectNotAllowed }
            switch await request.redirectAddresses(next.string) {
            case .refused: throw .redirectNotAllowed
            case .shed(let limit): throw .overloaded(limit: limit)
            case .resolvedWhenConnecting: hop.addresses = nil
            case .vetted(let addresses): hop.addresses = addresses
            }
            targets.append(next.string)
            hop.url = next
            // Each hop's fields come from its own URL: what is meant for one origin never follows a
            // redirect to another, and a redirect back to it carries them again.
            hop.headers = request.headers(forHop: next)
        }
    }
}
