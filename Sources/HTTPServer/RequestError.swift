import HTTPWire
/// A request the server refuses before any handler sees it; always answered, then the connection closes.
struct RequestError: HTTPStatusError, Equatable {
    /// The 4xx/5xx status.
    var status: HTTPStatus
    /// One line for the text/plain body.
    var reason: String
    /// Extra response fields, e.g. `Allow` on 405.
    var headers: HTTPHeaders = HTTPHeaders()

    static func badRequest(_ reason: String) -> RequestError { RequestError(status: .badRequest, reason: reason) }
}
