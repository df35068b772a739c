import HTTPServer
import HTTPWire

/// An origin for the stored-range tests, served by the project's own HTTP server on port 0.
/// `/v/<size>.ts` is `size` bytes whose byte i is `(i + 7 * version) % 251`, with ETag `"v<version>"`;
/// the version can be changed (at once, or after a number of answered requests) to stand for an object
/// replaced at the origin. Single ranges get a 206; a stale `If-Range` gets the whole new body (200),
/// as RFC 9110 §13.1.5 has it. `/nv/<size>.ts` is the same without any validator; `/star/<size>.ts`
/// answers ranges with an unknown total (`Content-Range: bytes a-b/*`). Every request is recorded.
public final class VersionedOrigin: Sendable {
    /// A request as the origin saw it.
    public struct Seen: Sendable, Equatable {
        public var path: String
        public var range: String?
        public var ifRange: String?
    }

    private struct State: Sendable {
        var version = 1
        /// When set, the version becomes `changeTo` once this many requests have been answered.
        var changeAfter: (requests: Int, changeTo: Int)?
        var seen: [Seen] = []
        /// A Range whose answer is sent slowly, 100 bytes every 10 ms, so a test can act while it runs.
        var slowRange: String?
    }

    private let server: HTTPServer
    private let state: LockedBox<State>

    /// Starts the server on a free port, the object at version 1.
    public init() throws {
        let state = LockedBox(State())
        self.state = state
        server = HTTPServer(configuration: HTTPServerConfiguration(port: 0)) { request in
            let (version, slow) = state.withLock { state -> (Int, Bool) in
                state.seen.append(Seen(path: request.path, range: request.headers["Range"], ifRange: request.headers["If-Range"]))
                let current = state.version
                if let change = state.changeAfter, state.seen.count >= change.requests { state.version = change.changeTo }
                return (current, state.slowRange != nil && state.slowRange == request.headers["Range"])
            }
            let answer = Self.answer(request, version: version)
            guard slow, case .bytes(let body) = answer.body else { return answer }
            var dripped = answer
            dripped.body = .stream(length: body.count, producer: { writer in
                for start in stride(from: 0, to: body.count, by: 100) {
                    try await Task.sleep(for: .milliseconds(10))
                    try await writer.write(Array(body[start..<min(start + 100, body.count)]))
                }
            })
            return dripped
        }
        try server.start()
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(server.port)" }

    /// Replaces the object: later answers are of `version`.
    public func setVersion(_ version: Int) { state.withLock { $0.version = version } }

    /// Replaces the object once `requests` requests in all have been answered.
    public func changeVersion(to version: Int, afterRequests requests: Int) {
        state.withLock { $0.changeAfter = (requests, version) }
    }

    /// Sends the answer to requests with this Range header slowly.
    public func sendSlowly(range: String) { state.withLock { $0.slowRange = range } }

    /// Requests seen for `path`.
    public func requests(_ path: String) -> [Seen] { state.withLock { $0.seen.filter { $0.path == path } } }

    /// Stops the server.
    public func stop() async { await server.stop(gracePeriod: .seconds(1)) }

    /// The bytes of `range` of an object at `version`.
    public static func bytes(_ range: ClosedRange<Int>, version: Int) -> [UInt8] {
        range.map { UInt8(($0 + 7 * version) % 251) }
    }

    private static func answer(_ request: HTTPRequest, version: Int) -> HTTPResponse {
        let parts = request.path.split(separator: "/")
        guard parts.count == 2, let size = Int(parts[1].prefix { $0.isNumber }) else { return HTTPResponse(status: HTTPStatus(code: 404)) }
        let kind = parts[0]
        var headers: HTTPHeaders = ["Content-Type": "video/mp2t", "Accept-Ranges": "bytes"]
        let etag = "\"v\(version)\""
        if kind == "v" { headers["ETag"] = etag }
        var range = request.headers["Range"]
        // RFC 9110 §13.1.5: a validator that does not match means the whole current body.
        if let ifRange = request.headers["If-Range"], kind != "v" || ifRange != etag { range = nil }
        guard let range, let parsed = GeneratedOrigin.parse(range, size: size) else {
            return HTTPResponse(status: .ok, headers: headers, bytes: bytes(0...(size - 1), version: version))
        }
        guard let (first, last) = parsed else {
            headers["Content-Range"] = "bytes */\(size)"
            return HTTPResponse(status: .rangeNotSatisfiable, headers: headers)
        }
        headers["Content-Range"] = "bytes \(first)-\(last)/\(kind == "star" ? "*" : String(size))"
        return HTTPResponse(status: .partialContent, headers: headers, bytes: bytes(first...last, version: version))
    }
}
