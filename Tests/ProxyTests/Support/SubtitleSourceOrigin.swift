import Foundation
import HTTPServer
@testable import HTTPWire
import TestSupport

/// A real in-process origin for subtitle sources: any path under `/subs/` ending in `/{file}` answers
/// with Tests/Fixtures/subtitles/{file}, any other path with that file of Tests/Fixtures, unless it is
/// listed as missing; every request is recorded with its method and its target exactly as sent
/// (still percent-encoded, query included).
final class SubtitleSourceOrigin: Sendable {
    /// A request as the origin saw it.
    struct Seen: Sendable, Equatable {
        var method: String
        var target: String
    }

    private let seen = LockedBox<[Seen]>([])
    private let server: HTTPServer

    /// `missing`: raw targets answered 404. `headStatus`: the status HEAD gets instead of the file's
    /// head (405 or 501, as origins that refuse HEAD answer). `delay`: how long each answer waits.
    init(missing: Set<String> = [], headStatus: Int? = nil, delay: Duration? = nil) throws {
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
    var baseURL: String { "http://127.0.0.1:\(server.port)" }

    /// Requests seen so far, optionally only those with this method.
    func requests(method: String? = nil) -> [Seen] {
        seen.withLock { all in method.map { wanted in all.filter { $0.method == wanted } } ?? all }
    }

    func stop() async { await server.stop(gracePeriod: .milliseconds(100)) }
}

/// Runs `body` against a proxy whose config has `SUBS` replaced by a SubtitleSourceOrigin's base URL.
func withSubtitleSources(
    _ configJSON: String, sources: SubtitleSourceOrigin, _ body: (ProxyHarness) async throws -> Void
) async throws {
    do {
        try await withProxy(configJSON.replacingOccurrences(of: "SUBS", with: sources.baseURL), body)
    } catch {
        await sources.stop()
        throw error
    }
    await sources.stop()
}

/// The media lines of a master's SUBTITLES renditions.
func subtitleRenditions(_ master: RawResponse) -> [Substring] {
    master.text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }
}

/// The URI attribute of an EXT-X-MEDIA line.
func renditionURI(_ line: Substring) -> String? {
    guard let start = line.range(of: "URI=\"") else { return nil }
    return String(line[start.upperBound...].prefix { $0 != "\"" })
}
