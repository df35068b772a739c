@testable import Proxy
import Testing

/// The entry header written in front of each cached body: it reads back what was written, and
/// anything damaged reads as no entry at all.
@Suite struct DiskCacheEntryTests {
    static let sample = DiskCacheEntry(
        key: "http://origin.test/a b.ts\u{1}Bearer x\nnewline", length: 1234,
        fields: [("Content-Type", "video/mp2t"), ("ETag", "\"e\u{0}1\""), ("Last-Modified", "Tue, 01 Apr 2025 10:00:00 GMT")])

    @Test func aHeaderReadsBackAsTheEntryItWasWrittenFrom() throws {
        let header = Self.sample.encodedHeader()
        let decoded = try #require(DiskCacheEntry.decodeHeader(header + [9, 9, 9]))
        #expect(decoded.entry == Self.sample)
        #expect(decoded.bodyOffset == header.count)
    }

    @Test func fileNamesAreSixteenHexDigitsAndDifferByKey() {
        let name = DiskCacheEntry.fileName(forKey: "http://origin.test/1.ts")
        #expect(name.count == 16 + DiskCacheEntry.fileSuffix.count)
        #expect(name.hasSuffix(".entry"))
        #expect(name != DiskCacheEntry.fileName(forKey: "http://origin.test/2.ts"))
        #expect(name == DiskCacheEntry.fileName(forKey: "http://origin.test/1.ts"))
    }

    @Test(arguments: [
        "hls-subtitle-proxy disk cache 0\nkey 61\nlength 1\n\n",  // another format version
        "hls-subtitle-proxy disk cache 1\nkey 6\nlength 1\n\n",  // odd hex
        "hls-subtitle-proxy disk cache 1\nkey 6g\nlength 1\n\n",  // not hex
        "hls-subtitle-proxy disk cache 1\nlength 1\n\n",  // no key
        "hls-subtitle-proxy disk cache 1\nkey 61\n\n",  // no length
        "hls-subtitle-proxy disk cache 1\nkey 61\nlength -1\n\n",  // negative length
        "hls-subtitle-proxy disk cache 1\nkey 61\nlength 99999999999999999999\n\n",  // overflowing length
        "hls-subtitle-proxy disk cache 1\nkey 61\nlength 1\nextra 1\n\n",  // unknown line
        "hls-subtitle-proxy disk cache 1\nkey 61\nlength 1\n",  // header cut short
        "",
    ])
    func damagedHeadersAreRejected(text: String) {
        #expect(DiskCacheEntry.decodeHeader(Array(text.utf8)) == nil)
    }
}
