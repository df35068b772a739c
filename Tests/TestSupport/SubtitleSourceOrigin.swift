import Foundation
import HTTPServer
@testable import HTTPWire

/// A real in-process origin for subtitle sources: any path under `/subs/` ending in `/{file}` answers
/// with Tests/Fixtures/subtitles/{file}, any other path with that file of Tests/Fixtures, unless it is
/// listed as missing; every request is recorded with its method and its target exactly as sent
/// (still percent-encoded, query included).
public final class SubtitleSourceOrigin: Sendable {
    /// A request as the origin saw it.
    public struct Seen: Sendable, Equatable {
        public var method: String
        public var target: String

        public init(method: String, target: String) {
            self.method = method
            self.target = target
        }
    }

    private let seen = LockedBox<[Seen]>([])
    private let server: HTTPServer

    /// `missing`: raw targets answered 404. `headStatus`: the status HEAD gets instead of the file's
    /// head (405 or 501, as origins that refuse HEAD answer). `delay`: how long each answer waits.
    public init(missing: Set<String> = [], headStatus: Int? = nil, delay: Duration? = nil) throws {
        let seen = self.seen
        let root = Fixtures.directory.path
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        server = HTTPServer(configuration: configuration) { request in
            seen.withLock { $0.append(Seen(method: request.method.rawValue, target: request.target)) }
            if let delay { try await Task.sleep(for: delay) }
            if request.method == .head, let headStatus {
                return HTTPResponse(status: HTTPStatus(code: headStatus), bytes: Array("no HEAD here\n".utf8))
            }
            let file = request.rawPath.hasPrefix("/subs/")
                ? "/subtitles/" + (request.rawPath.split(separator: "/").last.map(String.init) ?? "")
                : request.path
            guard !missing.contains(request.rawPath), !file.contains(".."),
                  let data = FileManager.default.contents(atPath: root + file)
            else { return HTTPResponse(status: .notFound, bytes: Array("not found\n".utf8)) }
            let type = file.hasSuffix(".m3u8") ? "application/vnd.apple.mpegurl" : file.hasSuffix(".vtt") ? "text/vtt" : "application/octet-stream"
            return HTTPResponse(status: .ok, headers: ["Content-Type": type], bytes: Array(data))
        }
        try server.start()
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(server.port)" }

    /// Requests seen so far, optionally only those with this method.
    public func requests(method: String? = nil) -> [Seen] {
        seen.withLock { all in method.map { wanted in all.filter { $0.method == wanted } } ?? all }
    }

    public func stop() async { await server.stop(gracePeriod: .milliseconds(100)) }
}
