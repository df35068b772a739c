import Foundation
import HLS
import HTTPServer
import Proxy
import TestSupport
import Testing

/// Every input under Tests/Fixtures/fuzz-regressions goes through the calls its fuzz target makes
/// (fuzz/Sources/{Target}); each once crashed, hung or ran out of memory, and must now simply return.
@Suite struct HardeningFuzzRegressionTests {
    static var directory: URL {
        Fixtures.url("fuzz-regressions")
    }

    static func inputs() throws -> [(name: String, bytes: [UInt8])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("Fuzz") }.sorted()
        return try names.map { ($0, try [UInt8](Data(contentsOf: directory.appendingPathComponent($0)))) }
    }

    static let routing = PathRouting(config: (try? ProxyConfig.decode(Array(#"""
        { "mounts": { "r": { "origin": "http://origin.test/base" } }, "embedded": { "allow_hosts": ["origin.test"] } }
        """#.utf8), environment: [:])) ?? ProxyConfig())

    static let signedChecking = SignedURLChecking(config: (try? ProxyConfig.decode(Array(#"""
        { "mounts": { "sample": { "origin": "http://origin.test/vod" } },
          "signing": { "keys": { "k1": "example-key-do-not-use-0123456789abcdef" } } }
        """#.utf8), environment: [:])) ?? ProxyConfig(), now: 1_795_000_000)

    @Test func everyRegressionInputIsHandledWithoutTrapping() throws {
        let inputs = try Self.inputs()
        // Without inputs the loop checks nothing: a moved or emptied corpus must fail, not pass.
        #expect(!inputs.isEmpty, "no inputs under \(Self.directory.path)")
        for (name, bytes) in inputs {
            switch name.split(separator: "-").first {
            case "FuzzRequestHead":
                _ = HTTPRequestHeadParsing.parse(bytes)
            case "FuzzPlaylist":
                if let playlist = try? Playlist.parse(bytes) { _ = playlist.serialized() }
                _ = try? MediaPlaylist.parse(bytes)
                let tracks = [SubtitleTrack(name: "English", language: "en", isDefault: true, autoselect: true)]
                _ = try? MasterPlaylistRewriter(tracks: tracks).rewrite(bytes, uri: { "/subs/\($0).m3u8" })
            case "FuzzWebVTT":
                if let document = try? WebVTTDocument.parse(TextEncoding.utf8Bytes(from: bytes)) {
                    let boundaries = SubtitlePlaylistBuilder.boundaries(durations: [2, 6, 6, 0.5, 10])
                    _ = document.shifted(by: 1_500).segmented(boundaries: boundaries).map { $0.serialized() }
                }
            case "FuzzSRT":
                _ = try? SRTConverter.webVTT(from: bytes).serialized()
            case "FuzzMedia":
                _ = try? MPEGTSReader.firstPTS(bytes)
                _ = try? MP4TextTrackReader.read(bytes)
                _ = try? FragmentedMP4Reader.firstPTS(initSegment: bytes, mediaSegment: bytes)
            case "FuzzPath":
                // The first byte picks the URL form (fuzz/Sources/FuzzPath); routing must simply answer.
                let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
                for prefix in ["/r/", "/http/origin.test/", ""] { _ = Self.routing.route(rawPath: prefix + text, query: nil) }
            case "FuzzInflate":
                _ = try? GzipDecoder.inflate(raw: Array(bytes.dropFirst()), maxOutputBytes: 1 << 20)
                _ = try? GzipDecoder.decode(Array(bytes.dropFirst()), maxOutputBytes: 1 << 20)
            case "FuzzSignedToken":
                // The first byte picks a path under /_hls-proxy/v1/ (even) or a payload to sign (odd), as
                // fuzz/Sources/FuzzSignedToken does; an unsigned path must never verify.
                let rest = Array(bytes.dropFirst())
                if bytes.first.map({ $0 % 2 == 0 }) ?? true {
                    let outcome = Self.signedChecking.check(rawPath: "/_hls-proxy/v1/" + String(decoding: rest, as: UTF8.self), query: nil)
                    if case .verified = outcome { Issue.record("\(name): an unsigned path verified") }
                } else if let token = Self.signedChecking.token(payload: rest, keyID: "k1") {
                    _ = Self.signedChecking.check(rawPath: SignedURLChecking.masterPath(token: token), query: nil)
                }
            default:
                Issue.record("\(name) names no fuzz target")
            }
        }
    }

    @Test func theRequestHeadEntryPointAgreesWithTheServer() {
        let accepted = HTTPRequestHeadParsing.parse(Array("GET /a%20b?q HTTP/1.1\r\nHost: x\r\n\r\nrest".utf8))
        guard case .request(let request, let length, let contentLength, let keepAlive) = accepted else {
            Issue.record("expected a request, got \(accepted)")
            return
        }
        #expect(request.path == "/a b")
        #expect(request.query == "q")
        #expect(length == 34)
        #expect(contentLength == 0)
        #expect(keepAlive)
        guard case .refused(let status) = HTTPRequestHeadParsing.parse(Array("GET / HTTP/1.1\r\n\r\n".utf8)) else {
            Issue.record("a 1.1 request without Host must be refused")
            return
        }
        #expect(status == .badRequest)
        guard case .incomplete = HTTPRequestHeadParsing.parse(Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8)) else {
            Issue.record("a head without its empty line is incomplete")
            return
        }
    }
}
