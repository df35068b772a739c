import HTTPServer

/// One class of request the handler dispatches to (masters, subtitles, pass-through, ...). A responder
/// owns its dependencies (built from a `ResponderContext`) and never touches the response fields every
/// answer shares: `ProxyHandler.finish` adds those.
protocol Responder: Sendable {
    /// What planning hands over: the routed request in the form this responder serves.
    associatedtype Target: Sendable

    /// The full answer, waiting on origins or files as needed. Errors carry their status
    /// (`HTTPStatusError`) and become responses in `ProxyHandler`, nowhere else.
    func serve(_ target: Target, request: HTTPRequest) async throws -> RouteResponse

    /// The answer when it needs no I/O (a cached body, a file opened without blocking), given on the
    /// server's loop thread; nil sends the request on to `serve`. It must never block or wait.
    func immediate(_ target: Target, request: HTTPRequest) -> RouteResponse?
}

extension Responder {
    /// Most responders have nothing to give without waiting.
    func immediate(_ target: Target, request: HTTPRequest) -> RouteResponse? { nil }
}

/// A responder whose every answer is immediate (files of directory mounts): `serve` is the same answer.
protocol ImmediateResponder: Responder {
    func answer(_ target: Target, request: HTTPRequest) -> RouteResponse
}

extension ImmediateResponder {
    func immediate(_ target: Target, request: HTTPRequest) -> RouteResponse? { answer(target, request: request) }
    func serve(_ target: Target, request: HTTPRequest) async throws -> RouteResponse { answer(target, request: request) }
}
