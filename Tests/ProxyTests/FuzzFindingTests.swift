import Foundation
@testable import Proxy
import TestSupport
import Testing

/// What the path and inflater fuzz targets found, each kept as a case of its own
/// (the inputs are also in Tests/Fixtures/fuzz-regressions).
@Suite struct FuzzFindingTests {
    static let router: RequestRouter = {
        let json = #"{"mounts": {"r": {"origin": "http://origin.test/base"}}, "embedded": {"allow_hosts": ["origin.test"]}}"#
        return RequestRouter(config: (try? ConfigTestSupport.decode(json)) ?? ProxyConfig())
    }()

    /// FuzzPath: `/ok/.     .  .` has no escape and no two adjacent dots, so routing skipped the check that
    /// refuses `. .`-style segments (spaces between dots are padding to a lenient origin).
    @Test(arguments: ["/r/ok/.     .  .", "/r/. ./x", "/r/.\t./x", "/http/origin.test/ok/. .", "/r/.\u{7F}./x"])
    func dotsApartByRawSpacesOrControlsAreCheckedEvenWithoutEscapes(path: String) {
        #expect(throws: ProxyError(.badRequest, #"path has a segment some origins read as "..""#), "\(path)") {
            try Self.router.route(rawPath: path, query: nil)
        }
    }

    @Test func dotsApartByLettersStillSkipTheCheckAndPass() throws {
        guard case .origin(let target) = try Self.router.route(rawPath: "/r/a.b.c/x.y.ts", query: nil) else {
            Issue.record("not an origin route")
            return
        }
        #expect(target.url == "http://origin.test/base/a.b.c/x.y.ts")
    }

    /// FuzzInflate: a dynamic block whose distance code is incomplete (its lengths leave codes unused).
    /// zlib refuses it ("invalid distances set"); the inflater decoded it into bytes zlib never produces.
    @Test func anIncompleteHuffmanCodeIsRefusedAsZlibRefusesIt() throws {
        let input = try Data(contentsOf: HardeningFuzzRegressionTests.directory.appendingPathComponent("FuzzInflate-incomplete-distance-code"))
        #expect(throws: OriginError.badResponse("corrupt gzip body")) {
            try GzipDecoder.inflate(raw: Array(input.dropFirst()), maxOutputBytes: 1 << 20)
        }
    }

    /// The cases RFC 1951 and zlib still allow: one distance code of one bit, and no distance codes
    /// at all for a block of literals only.
    @Test func aSingleOneBitDistanceCodeAndAnEmptyDistanceCodeStillInflate() throws {
        #expect(try HuffmanCode(lengths: [1] + [Int](repeating: 0, count: 29)).symbols.first == 0)
        _ = try HuffmanCode(lengths: [Int](repeating: 0, count: 30))
        #expect(throws: OriginError.self) { try HuffmanCode(lengths: [2, 2, 2] + [Int](repeating: 0, count: 27)) }
        #expect(throws: OriginError.self) { try HuffmanCode(lengths: [1] + [Int](repeating: 0, count: 18), isCodeLengthCode: true) }
        // Real encoders' output, with dynamic and fixed blocks, still decodes.
        let text = Array(String(repeating: "WEBVTT 00:00.000 --> 00:01.000 hello ", count: 200).utf8)
        if let compressed = try OriginClientGzipTests.gzip(text, level: 9) {
            #expect(try GzipDecoder.decode(compressed, maxOutputBytes: text.count) == text)
        }
        #expect(try GzipDecoder.decode(OriginClientGzipTests.helloGzip, maxOutputBytes: 100) == Array("WEBVTT\n\nhello hello hello hello\n".utf8))
    }
}
