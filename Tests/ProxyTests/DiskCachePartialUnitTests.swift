@testable import Proxy
import Testing

/// The pure parts of stored ranges: planning a range from pieces, reading Content-Range, and the piece
/// header written in front of each stored range.
@Suite struct DiskCachePartialUnitTests {
    @Test func aRangeInsideOnePieceIsOneStoredSpan() {
        #expect(DiskCacheSpan.cover(100, 199, with: [0...999]) == [.stored(piece: 0, lower: 100, upper: 199)])
    }

    @Test func gapsBetweenPiecesBecomeOneMissingSpanEach() {
        let spans = DiskCacheSpan.cover(0, 9999, with: [5000...5999, 1000...1999])
        #expect(spans == [
            .missing(lower: 0, upper: 999), .stored(piece: 1, lower: 1000, upper: 1999), .missing(lower: 2000, upper: 4999),
            .stored(piece: 0, lower: 5000, upper: 5999), .missing(lower: 6000, upper: 9999),
        ])
    }

    @Test func overlappingPiecesAreReadFromTheOneReachingFurthest() {
        let spans = DiskCacheSpan.cover(0, 2999, with: [0...999, 500...2499, 0...1999])
        #expect(spans == [.stored(piece: 2, lower: 0, upper: 1999), .stored(piece: 1, lower: 2000, upper: 2499), .missing(lower: 2500, upper: 2999)])
    }

    @Test func withNoPiecesTheWholeRangeIsMissing() {
        #expect(DiskCacheSpan.cover(5, 5, with: []) == [.missing(lower: 5, upper: 5)])
        #expect(DiskCacheSpan.cover(Int.max - 1, Int.max, with: [Int.max...Int.max]) == [
            .missing(lower: Int.max - 1, upper: Int.max - 1), .stored(piece: 0, lower: Int.max, upper: Int.max),
        ])
    }

    @Test(arguments: [
        ("bytes 0-9/100", 0, 9, 100 as Int?), ("bytes 10-10/11", 10, 10, 11), ("bytes 0-9/*", 0, 9, nil), ("Bytes  5-6/7 ", 5, 6, 7),
    ])
    func contentRangesAreRead(value: String, first: Int, last: Int, length: Int?) throws {
        let range = try #require(ByteRangeRequest.contentRange(value))
        #expect(range.first == first && range.last == last && range.length == length)
    }

    @Test(arguments: [
        "bytes 9-0/100", "bytes 0-100/100", "bytes */100", "bytes 0-9", "items 0-9/100", "bytes -1-9/100", "bytes 0-9/99999999999999999999", "",
    ])
    func malformedContentRangesAreRejected(value: String) {
        #expect(ByteRangeRequest.contentRange(value) == nil)
    }

    static let piece = DiskCacheEntry(
        key: "http://origin.test/a.ts", length: 1000, fields: [("Content-Type", "video/mp2t"), ("ETag", "\"e1\"")],
        piece: DiskCachePlacement(offset: 5000, objectLength: 300_000))

    @Test func aPieceHeaderReadsBackWithItsPlacement() throws {
        let header = Self.piece.encodedHeader()
        let decoded = try #require(DiskCacheEntry.decodeHeader(header))
        #expect(decoded.entry == Self.piece)
        #expect(decoded.entry.fileName == DiskCacheEntry.keyHash(Self.piece.key) + ".5000.piece")
        #expect(decoded.entry.validator == "\"e1\"")
    }

    @Test(arguments: [
        "hls-subtitle-proxy disk cache 1\nkey 61\nlength 10\npiece 95 100\n\n",  // runs past the object's end
        "hls-subtitle-proxy disk cache 1\nkey 61\nlength 0\npiece 0 100\n\n",  // empty piece
        "hls-subtitle-proxy disk cache 1\nkey 61\nlength 10\npiece -1 100\n\n",  // negative offset
        "hls-subtitle-proxy disk cache 1\nkey 61\nlength 10\npiece 0\n\n",  // no object length
        "hls-subtitle-proxy disk cache 1\nkey 61\nlength 10\npiece 0 999999999999999999999\n\n",  // overflowing length
    ])
    func damagedPieceHeadersAreRejected(text: String) {
        #expect(DiskCacheEntry.decodeHeader(Array(text.utf8)) == nil)
    }

    @Test func onlyAStrongETagOrLastModifiedJoinsPieces() {
        var weak = Self.piece
        weak.fields = [("ETag", "W/\"e1\"")]
        #expect(weak.validator == nil)
        var dated = Self.piece
        dated.fields = [("Last-Modified", "Tue, 01 Apr 2025 10:00:00 GMT")]
        #expect(dated.validator == "Tue, 01 Apr 2025 10:00:00 GMT")
        var other = Self.piece
        other.piece = DiskCachePlacement(offset: 0, objectLength: 300_000)
        #expect(other.isSameVersion(as: Self.piece))
        other.piece = DiskCachePlacement(offset: 0, objectLength: 300_001)
        #expect(!other.isSameVersion(as: Self.piece))
        #expect(!weak.isSameVersion(as: weak))
    }
}
