import HLS
import Testing

@Suite struct SubtitlePlaylistBuilderTests {
    func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    @Test func singleSegmentPlaylistMatchesItsGoldenFile() throws {
        let output = SubtitlePlaylistBuilder.single(duration: 12.0, uri: "en.vtt")
        try PlaylistFixtures.recordGoldenIfAsked("subtitle-playlists/single-12s.m3u8", output)
        #expect(output == (try PlaylistFixtures.golden("subtitle-playlists/single-12s.m3u8")))
    }

    @Test func segmentedPlaylistMatchesItsGoldenFile() throws {
        // The durations of corpus/media/comcast-aes128-crlf-faxs.m3u8: 7 x 2.002 s and 1.71 s.
        let durations = [Double](repeating: 2.002, count: 7) + [1.71]
        let output = SubtitlePlaylistBuilder.segmented(durations: durations, uri: { "en/\($0).vtt" })
        try PlaylistFixtures.recordGoldenIfAsked("subtitle-playlists/segmented-comcast-durations.m3u8", output)
        #expect(output == (try PlaylistFixtures.golden("subtitle-playlists/segmented-comcast-durations.m3u8")))
    }

    @Test func theOutputReadsBackAsAMediaPlaylistWithTheSameDurations() throws {
        let durations = [4.0, 4.0, 3.84, 0.126]
        let output = SubtitlePlaylistBuilder.segmented(durations: durations, uri: { "s\($0).vtt" })
        let playlist = try MediaPlaylist.parse(output)
        #expect(playlist.segments.map(\.duration) == durations)
        #expect(playlist.segments.map(\.uri) == ["s0.vtt", "s1.vtt", "s2.vtt", "s3.vtt"])
        #expect(playlist.targetDuration == 4)
        #expect(playlist.playlistType == "VOD")
        #expect(playlist.hasEndList)
    }

    @Test(arguments: [(4.0, 4), (4.001, 5), (3.9996, 4), (0.2, 1), (150.0, 150), (7199.5, 7200)])
    func targetDurationIsTheCeilingOfTheLongestSegment(duration: Double, target: Int) throws {
        let playlist = try MediaPlaylist.parse(SubtitlePlaylistBuilder.single(duration: duration, uri: "a.vtt"))
        #expect(playlist.targetDuration == target)
        // RFC 8216 §4.3.3.1: every EXTINF rounded to the nearest integer is at most the target.
        #expect(playlist.segments.allSatisfy { Int($0.duration + 0.5) <= target })
    }

    @Test(arguments: [
        (4.0, "4"), (3.84, "3.84"), (2.002, "2.002"), (0.0004, "0.001"), (1e-9, "0.001"), (3.9996, "4"),
        (0.1, "0.1"), (7199.999, "7199.999"), (123456789.5, "123456789.5"), (1e20, "1000000000"),
    ])
    func extinfIsPrintedWithUpToThreeDecimalsAndAlwaysACommaNeverAnExponent(duration: Double, printed: String) {
        let output = text(SubtitlePlaylistBuilder.single(duration: duration, uri: "a.vtt"))
        #expect(output.contains("\n#EXTINF:\(printed),\na.vtt\n"), "\(output)")
    }

    @Test(arguments: [0.0, -5.0, Double.nan, Double.infinity, -Double.infinity, Double.leastNonzeroMagnitude * -1])
    func aPresentationWithoutLengthGetsOneOneSecondSegment(duration: Double) throws {
        let output = SubtitlePlaylistBuilder.single(duration: duration, uri: "a.vtt")
        #expect(text(output) == """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:1
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXTINF:1,
            a.vtt
            #EXT-X-ENDLIST

            """)
    }

    @Test func badDurationsInsideASegmentedListCountAsZeroAndKeepTheirIndex() throws {
        let output = SubtitlePlaylistBuilder.segmented(durations: [4, .nan, -1, 2.5], uri: { "s\($0).vtt" })
        let playlist = try MediaPlaylist.parse(output)
        #expect(playlist.segments.map(\.duration) == [4, 0, 0, 2.5])
        #expect(playlist.segments.map(\.uri) == ["s0.vtt", "s1.vtt", "s2.vtt", "s3.vtt"])
    }

    @Test func anEmptyDurationListStillGivesAValidPlaylist() throws {
        let playlist = try MediaPlaylist.parse(SubtitlePlaylistBuilder.segmented(durations: [], uri: { "s\($0).vtt" }))
        #expect(playlist.segments == [MediaSegment(duration: 1, uri: "s0.vtt")])
    }

    @Test func playlistTypeIsOmittedWhenNilOrNotALegalValue() {
        #expect(!text(SubtitlePlaylistBuilder.single(duration: 4, uri: "a.vtt", playlistType: nil)).contains("PLAYLIST-TYPE"))
        #expect(text(SubtitlePlaylistBuilder.single(duration: 4, uri: "a.vtt", playlistType: "EVENT")).contains("#EXT-X-PLAYLIST-TYPE:EVENT\n"))
        let injected = text(SubtitlePlaylistBuilder.single(duration: 4, uri: "a.vtt", playlistType: "VOD\n#EXT-X-ENDLIST"))
        #expect(!injected.contains("PLAYLIST-TYPE"))
    }

    @Test func aLineBreakInAUriCannotInjectALine() {
        let output = text(SubtitlePlaylistBuilder.single(duration: 4, uri: "a.vtt\r\n#EXT-X-ENDLIST"))
        #expect(output.contains("\na.vtt#EXT-X-ENDLIST\n"))
        #expect(!output.contains("\r"))
    }

    @Test(arguments: [
        (12.0, 4.0, [4.0, 4.0, 4.0]), (10.0, 4.0, [4.0, 4.0, 2.0]), (12.0000001, 4.0, [4.0, 4.0, 4.0]),
        (3.0, 6.0, [3.0]), (9.5, 0.0, [9.5]), (9.5, .nan, [9.5]), (0.0, 4.0, [1.0]), (.infinity, 4.0, [1.0]),
    ])
    func fixedWindowsSplitTheTotalWithoutRoundingCrumbs(total: Double, window: Double, expected: [Double]) {
        #expect(SubtitlePlaylistBuilder.fixedWindows(totalDuration: total, segmentDuration: window) == expected)
    }

    @Test func fixedWindowsAreCappedInNumber() {
        let windows = SubtitlePlaylistBuilder.fixedWindows(totalDuration: 1e9, segmentDuration: 0.001)
        #expect(windows.count <= SubtitlePlaylistBuilder.maximumWindowCount)
        #expect(abs(windows.reduce(0, +) - 1e9) < 1)
    }

    @Test func boundariesAreCumulativeStartsInMilliseconds() {
        #expect(SubtitlePlaylistBuilder.boundaries(durations: [4, 4, 4]) == [0, 4000, 8000])
        #expect(SubtitlePlaylistBuilder.boundaries(durations: [2.002, 2.002, 1.71]) == [0, 2002, 4004])
        #expect(SubtitlePlaylistBuilder.boundaries(durations: []) == [])
        #expect(SubtitlePlaylistBuilder.boundaries(durations: [.nan, -1, 1]) == [0, 0, 0])
    }

    @Test func boundariesFollowThePrintedDurationsSoTheyNeverDrift() throws {
        // 3000 segments of 1.0004 s print as "1" each; a player places segment 2999 at 2999 s.
        let durations = [Double](repeating: 1.0004, count: 3000)
        #expect(SubtitlePlaylistBuilder.boundaries(durations: durations).last == 2_999_000)
        let playlist = try MediaPlaylist.parse(SubtitlePlaylistBuilder.segmented(durations: durations, uri: { "\($0).vtt" }))
        #expect(playlist.duration == 3000)
    }

    @Test func boundariesOfTheTestStreamMatchItsVariantPlaylist() throws {
        let variant = try MediaPlaylist.parse(PlaylistFixtures.bytes("vod-ts/v0/index.m3u8"))
        #expect(SubtitlePlaylistBuilder.boundaries(durations: variant.segments.map(\.duration)) == [0, 4000, 8000])
    }
}
