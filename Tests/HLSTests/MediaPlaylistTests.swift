import HLS
import Testing

@Suite struct MediaPlaylistTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        let path: String
        let segmentCount: Int
        let duration: Double
        let hasEndList: Bool
        let targetDuration: Int
        let playlistType: String?
        var testDescription: String { path }
    }

    // Counts and sums from the files themselves, with
    // `grep -c '^#EXTINF' F` and `grep '^#EXTINF' F | sed 's/#EXTINF://; s/,.*//' | awk '{s+=$1} END {print s}'`.
    static let expectations: [Expected] = [
        Expected(path: "vod-ts/v0/index.m3u8", segmentCount: 3, duration: 12, hasEndList: true, targetDuration: 4, playlistType: "VOD"),
        Expected(path: "vod-fmp4/index.m3u8", segmentCount: 3, duration: 12, hasEndList: true, targetDuration: 4, playlistType: "VOD"),
        Expected(path: "corpus/media/channel-engine-live-scte35-cue-absolute.m3u8", segmentCount: 5, duration: 30.126, hasEndList: false, targetDuration: 8, playlistType: nil),
        Expected(path: "corpus/media/comcast-aes128-crlf-faxs.m3u8", segmentCount: 8, duration: 15.724, hasEndList: true, targetDuration: 3, playlistType: "VOD"),
        Expected(path: "corpus/media/comcast-live-fmp4-fairplay-daterange-scte35.m3u8", segmentCount: 8, duration: 48.014, hasEndList: false, targetDuration: 6, playlistType: nil),
        Expected(path: "corpus/media/crlf-usp-vtt-subtitle-no-desc.m3u8", segmentCount: 20, duration: 60, hasEndList: true, targetDuration: 3, playlistType: "VOD"),
        Expected(path: "corpus/media/define-import-byterange-tabs.m3u8", segmentCount: 4, duration: 40, hasEndList: false, targetDuration: 10, playlistType: "VOD"),
        Expected(path: "corpus/media/ffmpeg-5.1-webvtt-subtitle-playlist.m3u8", segmentCount: 3, duration: 12, hasEndList: true, targetDuration: 4, playlistType: nil),
        Expected(path: "corpus/media/fmp4-subtitles-crlf-ext-x-map.m3u8", segmentCount: 145, duration: 556.459, hasEndList: true, targetDuration: 8, playlistType: nil),
        Expected(path: "corpus/media/grafov-widevine-aes128-key-query.m3u8", segmentCount: 10, duration: 69, hasEndList: false, targetDuration: 9, playlistType: nil),
        Expected(path: "corpus/media/grafov-wowza-vod-chunklist-query.m3u8", segmentCount: 522, duration: 6259.2, hasEndList: true, targetDuration: 12, playlistType: nil),
        Expected(path: "corpus/media/llhls-parts-preload-hint-rendition-report.m3u8", segmentCount: 7, duration: 28.00056, hasEndList: false, targetDuration: 4, playlistType: nil),
        Expected(path: "corpus/media/mux-cmaf-ext-x-map-signed-urls.m3u8", segmentCount: 5, duration: 23.85717, hasEndList: true, targetDuration: 5, playlistType: "VOD"),
        Expected(path: "corpus/media/usp-webvtt-subtitle-crlf-absolute.m3u8", segmentCount: 149, duration: 570.76, hasEndList: true, targetDuration: 4, playlistType: "VOD"),
        Expected(path: "corpus/media/whitespace-around-uris.m3u8", segmentCount: 4, duration: 40, hasEndList: true, targetDuration: 10, playlistType: "VOD"),
        Expected(path: "corpus/media/wowza-webvtt-subtitle-chunks.m3u8", segmentCount: 4, duration: 600, hasEndList: true, targetDuration: 150, playlistType: nil),
    ]

    @Test(arguments: expectations)
    func readsSegmentCountDurationAndFlags(expected: Expected) throws {
        let playlist = try MediaPlaylist.parse(PlaylistFixtures.bytes(expected.path))
        #expect(playlist.segments.count == expected.segmentCount)
        #expect(abs(playlist.duration - expected.duration) < 1e-6, "\(playlist.duration)")
        #expect(playlist.hasEndList == expected.hasEndList)
        #expect(playlist.targetDuration == expected.targetDuration)
        #expect(playlist.playlistType == expected.playlistType)
    }

    @Test func readsTheTestStreamsVariantPlaylist() throws {
        let playlist = try MediaPlaylist.parse(PlaylistFixtures.bytes("vod-ts/v0/index.m3u8"))
        #expect(playlist.mediaSequence == 0)
        #expect(playlist.segments == [
            MediaSegment(duration: 4, uri: "seg000.ts"),
            MediaSegment(duration: 4, uri: "seg001.ts"),
            MediaSegment(duration: 4, uri: "seg002.ts"),
        ])
    }

    @Test func everySegmentCarriesTheMapInForce() throws {
        let playlist = try MediaPlaylist.parse(PlaylistFixtures.bytes("vod-fmp4/index.m3u8"))
        #expect(playlist.segments.map(\.mapURI) == ["init.mp4", "init.mp4", "init.mp4"])
        #expect(playlist.segments.map(\.uri) == ["seg000.m4s", "seg001.m4s", "seg002.m4s"])
        let subtitles = try MediaPlaylist.parse(PlaylistFixtures.bytes("corpus/media/fmp4-subtitles-crlf-ext-x-map.m3u8"))
        #expect(subtitles.segments.first?.mapURI == "https://mock.vod.com/20337209-subs_sv.m4s")
        #expect(subtitles.segments.first?.uri == "https://mock.vod.com/20337209-subs_sv-549.m4s")
    }

    @Test func urisLoseSurroundingSpacesAndTabs() throws {
        let playlist = try MediaPlaylist.parse(PlaylistFixtures.bytes("corpus/media/whitespace-around-uris.m3u8"))
        #expect(playlist.segments.map(\.uri) == [
            "http://example.com/00001.ts", "https://example.com/00002.ts", "//example.com/00003.ts", "http://example.com/00004.ts",
        ])
    }

    @Test func byteRangesAndTabsAfterTheExtinfCommaAreRead() throws {
        let playlist = try MediaPlaylist.parse(PlaylistFixtures.bytes("corpus/media/define-import-byterange-tabs.m3u8"))
        #expect(playlist.segments.map(\.byteRange) == [
            .init(length: 522828, offset: 0), .init(length: 587500, offset: 522828),
            .init(length: 713084, offset: 1110328), .init(length: 476580, offset: 1823412),
        ])
        #expect(playlist.segments.last?.uri == "hls_450k_video.ts")
    }

    @Test func aMapByteRangeAndARangeWithoutOffsetAreRead() throws {
        let text = "#EXTM3U\n#EXT-X-MAP:URI=\"main.mp4\",BYTERANGE=\"720@0\"\n#EXTINF:2.5,\n#EXT-X-BYTERANGE:1000\nmain.mp4\n"
        let playlist = try MediaPlaylist.parse(Array(text.utf8))
        #expect(playlist.segments == [MediaSegment(
            duration: 2.5, uri: "main.mp4", byteRange: .init(length: 1000), mapURI: "main.mp4", mapByteRange: .init(length: 720, offset: 0)
        )])
    }

    @Test(arguments: ["abc", "-1", "nan", "inf", "1e3", "0x10", "", "1.2.3", "+4", "1" + String(repeating: "0", count: 400)])
    func aBadExtinfDurationIsATypedError(duration: String) {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:\(duration),\nseg.ts\n"
        #expect(throws: PlaylistError.invalidSegmentDuration(line: 3)) { try MediaPlaylist.parse(Array(text.utf8)) }
    }

    @Test func anExtinfWithoutCommaOrWithTitleStillReadsItsDuration() throws {
        let text = "#EXTM3U\n#EXTINF:4\na.ts\n#EXTINF:2.002,4140\nb.ts\n#EXTINF:.5, no desc\nc.ts\n"
        let playlist = try MediaPlaylist.parse(Array(text.utf8))
        #expect(playlist.segments.map(\.duration) == [4, 2.002, 0.5])
    }

    @Test(arguments: ["x", "10@", "@5", "-3@0", "99999999999999999999999"])
    func aBadByteRangeIsATypedError(range: String) {
        let text = "#EXTM3U\n#EXTINF:4,\n#EXT-X-BYTERANGE:\(range)\nseg.ts\n"
        #expect(throws: PlaylistError.invalidByteRange(line: 3)) { try MediaPlaylist.parse(Array(text.utf8)) }
    }

    @Test func aUriWithoutExtinfIsATypedError() {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\nseg.ts\n"
        #expect(throws: PlaylistError.missingSegmentDuration(line: 3)) { try MediaPlaylist.parse(Array(text.utf8)) }
    }

    @Test func aMasterIsNotAMediaPlaylist() throws {
        let master = try PlaylistFixtures.bytes("vod-ts/master.m3u8")
        #expect(throws: PlaylistError.notAMediaPlaylist) { try MediaPlaylist.parse(master) }
    }

    @Test func anUnparsableTargetDurationReadsAsNil() throws {
        let playlist = try MediaPlaylist.parse(Array("#EXTM3U\n#EXT-X-TARGETDURATION:four\n".utf8))
        #expect(playlist.targetDuration == nil)
        #expect(playlist.segments.isEmpty)
        #expect(playlist.duration == 0)
    }
}
