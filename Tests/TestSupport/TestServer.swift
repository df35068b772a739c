import HTTPServer
@testable import HTTPWire

/// An error with a status, as handlers throw them.
public struct TeapotError: HTTPStatusError {
    public var status: HTTPStatus { HTTPStatus(code: 403) }
    public var reason: String { "not for you" }
    public init() {}
}

/// An error without a status, as a handler's bug would throw.
public struct PlainError: Error {
    public init() {}
}

/// The handler the tests run against: echoes what it saw; a few paths sleep, throw or misbehave.
public let echoHandler: HTTPHandler = { request in
    if request.path == "/slow", let millis = request.query.flatMap({ Int($0) }) {
        // A slow handler is what /slow stands for: the sleep is the behaviour under test.
        try await Task.sleep(for: .milliseconds(millis))
    }
    switch request.path {
    case "/status-error": throw TeapotError()
    case "/plain-error": throw PlainError()
    case "/big": return HTTPResponse(status: .ok, bytes: [UInt8](repeating: 65, count: 16 << 20))
    case "/own-framing":
        return HTTPResponse(status: .ok, headers: ["Content-Length": "999", "Date": "yesterday", "Connection": "keep-alive"],
                            bytes: Array("framed\n".utf8))
    default: break
    }
    let text = "\(request.method) path=\(request.path) raw=\(request.rawPath) query=\(request.query ?? "nil") "
        + "target=\(request.target) body=\(request.body.count)"
    return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], bytes: Array(text.utf8))
}

/// Starts a server on a free port (offering requests to `immediateHandler` first when given), runs `body`,
/// and stops the server.
public func withServer<T: Sendable>(
    _ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
    handler: @escaping HTTPHandler = echoHandler,
    immediateHandler: HTTPImmediateHandler? = nil,
    _ body: (HTTPServer) async throws -> T
) async throws -> T {
    var configuration = HTTPServerConfiguration()
    configuration.port = 0
    configure(&configuration)
    let server = if let immediateHandler {
        HTTPServer(configuration: configuration, handler: handler, immediateHandler: immediateHandler)
    } else {
        HTTPServer(configuration: configuration, handler: handler)
    }
    try server.start()
    do {
        let result = try await body(server)
        await server.stop(gracePeriod: .seconds(2))
        return result
    } catch {
        await server.stop(gracePeriod: .seconds(2))
        throw error
    }
}

/// A well-formed GET on a new connection; the status it gets.
public func freshRequestStatus(port: Int) throws -> Int {
    let client = try RawSocketClient(port: port)
    try client.send("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
    return try client.readResponse().status
}
