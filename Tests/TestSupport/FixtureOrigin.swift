import Foundation
import HTTPServer
@testable import HTTPWire
import Synchronization

/// A real in-process origin: the project's own HTTPServer serving Tests/Fixtures, with switchable faults.
public final class FixtureOrigin: Sendable {
    /// What a path answers instead of its file.
    public enum Fault: Sendable {
        case status(Int)
        case body([UInt8], contentType: String)
        case delay(Duration)
        case redirect(String)
        /// 403 unless the request carries this header with this value; then the file as usual.
        case requireHeader(name: String, value: String)
    }

    private struct State {
        var faults: [String: Fault] = [:]
        var hits: [String: Int] = [:]
        var lastHeaders: [String: HTTPHeaders] = [:]
        var refusals = 0
    }

    private let state = LockedBox(State())
    private let server: HTTPServer

    /// Starts serving `root` (Tests/Fixtures unless given) on a free port. With `requiredHeader`, every
    /// request without that field and value is refused with 403 and counted in `refusals`.
    public init(root: String = Fixtures.directory.path, requiredHeader: (name: String, value: String)? = nil) throws {
        let state = self.state
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        server = HTTPServer(configuration: configuration) { request in
            let fault = state.withLock { state -> Fault? in
                state.hits[request.path, default: 0] += 1
                state.lastHeaders[request.path] = request.headers
                return state.faults[request.target] ?? state.faults[request.path]
            }
            if let requiredHeader, request.headers[requiredHeader.name] != requiredHeader.value {
                state.withLock { $0.refusals += 1 }
                return HTTPResponse(status: .forbidden, bytes: Array("forbidden\n".utf8))
            }
            switch fault {
            case .status(let code):
                return HTTPResponse(status: HTTPStatus(code: code), bytes: Array("fault \(code)\n".utf8))
            case .body(let bytes, let contentType):
                return HTTPResponse(status: .ok, headers: ["Content-Type": contentType], bytes: bytes)
            case .delay(let duration):
                try await Task.sleep(for: duration)
            case .redirect(let location):
                return HTTPResponse(status: .found, headers: ["Location": location])
            case .requireHeader(let name, let value):
                guard request.headers[name] == value else { return HTTPResponse(status: .forbidden, bytes: Array("forbidden\n".utf8)) }
            case nil:
                break
            }
            guard !request.path.contains(".."), let data = FileManager.default.contents(atPath: root + request.path) else {
                return HTTPResponse(status: .notFound, bytes: Array("not found\n".utf8))
            }
            let type = request.path.hasSuffix(".m3u8") ? "application/vnd.apple.mpegurl" : "application/octet-stream"
            return HTTPResponse(status: .ok, headers: ["Content-Type": type], bytes: Array(data))
        }
        try server.start()
    }

    /// The port the origin listens on.
    public var port: Int { server.port }
    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Makes `path` answer with `fault` (nil: its file again); a `path` with a query applies to that exact target only.
    public func setFault(_ path: String, _ fault: Fault?) { state.withLock { $0.faults[path] = fault } }
    /// Requests seen for `path`.
    public func hits(_ path: String) -> Int { state.withLock { $0.hits[path] ?? 0 } }
    /// Requests refused for lacking the required header.
    public var refusals: Int { state.withLock { $0.refusals } }
    /// The headers of the last request for `path`.
    public func lastHeaders(_ path: String) -> HTTPHeaders? { state.withLock { $0.lastHeaders[path] } }

    /// Stops the server.
    public func stop() async { await server.stop(gracePeriod: .milliseconds(100)) }
}
