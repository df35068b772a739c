import HLS
import Testing

/// The one-variant master around a media playlist and the BANDWIDTH it claims.
@Suite struct WrappedMasterTests {
    @Test func theMasterHasOneVariantAndCODECSOnlyWhenGiven() {
        #expect(String(decoding: WrappedMaster.make(bandwidth: 500_000, variantURI: "a.m3u8?_hls_proxy=media"), as: UTF8.self)
            == "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\na.m3u8?_hls_proxy=media\n")
        #expect(String(decoding: WrappedMaster.make(bandwidth: 1, codecs: "avc1.42c00c", variantURI: "a.m3u8"), as: UTF8.self)
            == "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.42c00c\"\na.m3u8\n")
        // A value that cannot be quoted is left out rather than written broken.
        #expect(!String(decoding: WrappedMaster.make(bandwidth: 1, codecs: "a\"b", variantURI: "a.m3u8"), as: UTF8.self).contains("CODECS"))
    }

    @Test func theLargestWellFormedBitrateTagWinsAndMalformedOnesSayNothing() throws {
        let playlist = try Playlist.parse(Array("""
            #EXTM3U
            #EXT-X-BITRATE:900
            #EXTINF:4,
            a.ts
            #EXT-X-BITRATE:-5000
            #EXT-X-BITRATE:99999999999999999999
            #EXT-X-BITRATE:
            #EXT-X-BITRATE:0
            #EXTINF:4,
            b.ts

            """.utf8))
        #expect(WrappedMaster.bitrateBandwidth(playlist) == 900_000)
        #expect(WrappedMaster.bitrateBandwidth(try Playlist.parse(Array("#EXTM3U\n#EXTINF:4,\na.ts\n".utf8))) == nil)
    }

    @Test func measuredBandwidthIsThePeakSegmentRateAndSkipsSegmentsWithoutADuration() {
        #expect(WrappedMaster.measuredBandwidth([(100_000, 4), (120_000, 4), (1_000_000, 0)]) == 240_000)
        #expect(WrappedMaster.measuredBandwidth([(1, 3)]) == 3)
        #expect(WrappedMaster.measuredBandwidth([(1_000, .infinity), (-1, 1), (0, 1)]) == nil)
        #expect(WrappedMaster.measuredBandwidth([(Int.max, 0.001)]) == WrappedMaster.maximumBandwidth)
        #expect(WrappedMaster.measuredBandwidth([]) == nil)
    }
}
