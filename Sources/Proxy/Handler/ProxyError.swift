import HTTPServer
import HTTPWire

/// What can go wrong while answering a request, each with the status the client gets (SPEC "Errors").
public struct ProxyError: Error, HTTPStatusError, Equatable {
    /// The status the client gets.
    public var status: HTTPStatus
    /// A one-line reason, safe to show a client: never a header value or a secret.
    public var reason: String

    /// Makes an error.
    public init(_ status: HTTPStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    static func notFound(_ reason: String) -> ProxyError { ProxyError(.notFound, reason) }
    static func badRequest(_ reason: String) -> ProxyError { ProxyError(.badRequest, reason) }
    static func forbidden(_ reason: String) -> ProxyError { ProxyError(.forbidden, reason) }
    static func badGateway(_ reason: String) -> ProxyError { ProxyError(.badGateway, reason) }
}
