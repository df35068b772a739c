import Testing
import TestSupport
@testable import Proxy

/// The router splits paths and targets by bytes; on every path without a Unicode "prepend" character
/// the pieces are the Character forms' own.
@Suite struct PathSegmentsTests {
    @Test(arguments: ["", "/", "a", "a/b", "/a/b/", "//", "a//b", "é/ü/x", "_hls-proxy/v1/s/en/L3NhbXBsZQ/0.vtt", "a b/c%2Fd", "👩‍👩‍👧/x"])
    func segmentsAreTheCharacterSplitsOwn(path: String) {
        #expect(path.slashSegments() == path.split(separator: "/", omittingEmptySubsequences: false), "\(path)")
        let sub = path.dropFirst(0)
        #expect(sub.slashSegments() == sub.split(separator: "/", omittingEmptySubsequences: false), "\(path)")
    }

    @Test func seededRandomPathsSplitAsTheCharacterFormDoes() {
        var generator = SeededGenerator()
        let pieces = ["a", "/", "é", "e\u{301}", "%2F", "?", "👍🏽", " ", "."]
        for _ in 0..<2_000 {
            let path = (0..<Int.random(in: 0...10, using: &generator)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
            #expect(path.slashSegments() == path.split(separator: "/", omittingEmptySubsequences: false), "\(path) (seed \(generator.seed))")
            let (head, query) = splitTarget(path)
            if let mark = path.firstIndex(of: "?") {
                #expect(head == String(path[..<mark]) && query == String(path[path.index(after: mark)...]), "\(path)")
            } else {
                #expect(head == path && query == nil, "\(path)")
            }
            #expect(targetQuery(path) == query, "\(path)")
        }
    }

    @Test func aSegmentLeafIsDigitsThenVttWithinInt() {
        #expect(SubtitleURL.segmentNumber("0.vtt") == 0)
        #expect(SubtitleURL.segmentNumber("42.vtt") == 42)
        #expect(SubtitleURL.segmentNumber("\(Int.max).vtt") == Int.max)
        for refused in [".vtt", "vtt", "1.VTT", "1.vt", "+1.vtt", "-0.vtt", "1a.vtt", " 1.vtt", "1.vtt.vtt", "99999999999999999999.vtt", "١.vtt"] {
            #expect(SubtitleURL.segmentNumber(refused[...]) == nil, "\(refused)")
        }
    }
}
