import Testing
import TestSupport
@testable import Proxy

/// The router splits paths and targets by bytes; where no "/" or "?" is joined to a neighbour into one
/// Character, the pieces are the Character forms' own.
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
            #expect(path.firstQuestionMark() == path.utf8.firstIndex(of: UInt8(ascii: "?")), "\(path)")
        }
    }

    /// A separator joined to its neighbour into one Character (a combining mark or U+200D after it,
    /// U+0600 before it) still separates, as it does in a URL and for the kernel.
    @Test func aSeparatorJoinedToItsNeighbourStillSeparates() {
        #expect("a/\u{301}b".slashSegments() == ["a", "\u{301}b"])
        #expect("a/\u{200D}b".slashSegments() == ["a", "\u{200D}b"])
        #expect("x\u{600}/y".slashSegments() == ["x\u{600}", "y"])
        let (path, query) = splitTarget("/sample/master.m3u8?\u{301}token=1")
        #expect(path == "/sample/master.m3u8")
        #expect(query?.unicodeScalars.first == "\u{301}")
        #expect(targetQuery("/m?\u{301}t=1")?.unicodeScalars.first == "\u{301}")
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
