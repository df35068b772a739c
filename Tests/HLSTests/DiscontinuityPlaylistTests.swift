import HLS
import Testing

/// Discontinuities and growth in media playlists: what the parser reads and what the subtitle playlist
/// builder writes from it (RFC 8216 §4.3.2.3, §4.3.3.3, §4.3.3.4, §6.2.4).
@Suite struct DiscontinuityPlaylistTests {
    static let spliced = """
        #EXTM3U
        #EXT-X-TARGETDURATION:2
        #EXT-X-DISCONTINUITY-SEQUENCE:7
        #EXTINF:2,
        a.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:2,
        b.ts
        #EXTINF:2,
        c.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:1.5,
        d.ts
        #EXT-X-ENDLIST

        """

    @Test func theParserMarksTheSegmentAfterEachDiscontinuityAndReadsTheSequence() throws {
        let playlist = try MediaPlaylist.parse(Array(Self.spliced.utf8))
        #expect(playlist.segments.map(\.discontinuity) == [false, true, false, true])
        #expect(playlist.discontinuitySequence == 7)
    }

    @Test func anUnparsableDiscontinuitySequenceReadsAsNil() throws {
        let text = Self.spliced.replacingOccurrences(of: "SEQUENCE:7", with: "SEQUENCE:seven")
        #expect(try MediaPlaylist.parse(Array(text.utf8)).discontinuitySequence == nil)
    }

    @Test func aDiscontinuityAtTheEndWithNoSegmentAfterItMarksNothing() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n#EXT-X-DISCONTINUITY\n"
        #expect(try MediaPlaylist.parse(Array(text.utf8)).segments.map(\.discontinuity) == [false])
    }

    @Test func theBuilderWritesDiscontinuitiesBeforeTheSameSegmentsAndTheSequence() {
        let shape = SubtitlePlaylistShape(playlistType: "VOD", discontinuities: [1, 3], discontinuitySequence: 7)
        let text = String(decoding: SubtitlePlaylistBuilder.segmented(durations: [2, 2, 2, 1.5], uri: { "\($0).vtt" }, shape: shape), as: UTF8.self)
        #expect(text == """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-DISCONTINUITY-SEQUENCE:7
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXTINF:2,
            0.vtt
            #EXT-X-DISCONTINUITY
            #EXTINF:2,
            1.vtt
            #EXTINF:2,
            2.vtt
            #EXT-X-DISCONTINUITY
            #EXTINF:1.5,
            3.vtt
            #EXT-X-ENDLIST

            """)
    }

    @Test func aPlaylistThatStillGrowsHasNoEndList() {
        let shape = SubtitlePlaylistShape(playlistType: "EVENT", ended: false)
        let text = String(decoding: SubtitlePlaylistBuilder.segmented(durations: [4, 4], uri: { "\($0).vtt" }, shape: shape), as: UTF8.self)
        #expect(text.contains("#EXT-X-PLAYLIST-TYPE:EVENT\n"))
        #expect(!text.contains("#EXT-X-ENDLIST"))
        #expect(text.hasSuffix("1.vtt\n"))
    }

    @Test func aLivePlaylistWithoutTypeGetsNoTypeLine() {
        let shape = SubtitlePlaylistShape(playlistType: nil, ended: false)
        let text = String(decoding: SubtitlePlaylistBuilder.segmented(durations: [4], uri: { "\($0).vtt" }, shape: shape), as: UTF8.self)
        #expect(!text.contains("PLAYLIST-TYPE"))
        #expect(!text.contains("#EXT-X-ENDLIST"))
    }

    @Test func theDefaultShapeWritesTheVODPlaylistAsBefore() {
        let durations = [4.0, 4, 4]
        let shaped = SubtitlePlaylistBuilder.segmented(durations: durations, uri: { "\($0).vtt" }, shape: SubtitlePlaylistShape())
        #expect(shaped == SubtitlePlaylistBuilder.segmented(durations: durations, uri: { "\($0).vtt" }))
        #expect(!String(decoding: shaped, as: UTF8.self).contains("DISCONTINUITY"))
    }

    @Test func aDiscontinuitySequenceUpToTwoToTheSixtyFourMinusOneIsReadAndWrittenAsTheOriginWroteIt() throws {
        let text = Self.spliced.replacingOccurrences(of: "SEQUENCE:7", with: "SEQUENCE:18446744073709551615")
        let playlist = try MediaPlaylist.parse(Array(text.utf8))
        #expect(playlist.discontinuitySequence == UInt64.max)
        #expect(playlist.unreadableTags.isEmpty)
        let shape = SubtitlePlaylistShape(discontinuities: [1], discontinuitySequence: playlist.discontinuitySequence)
        let written = String(decoding: SubtitlePlaylistBuilder.segmented(durations: [4, 4], uri: { "\($0).vtt" }, shape: shape), as: UTF8.self)
        #expect(written.contains("\n#EXT-X-DISCONTINUITY-SEQUENCE:18446744073709551615\n"))
    }

    @Test(arguments: ["18446744073709551616", "99999999999999999999999", "-1", "+7", "7.0", "0x7", " 7 7"])
    func aDiscontinuitySequenceThatIsNotADecimalIntegerReadsAsNilAndIsReported(_ value: String) throws {
        let text = Self.spliced.replacingOccurrences(of: "SEQUENCE:7", with: "SEQUENCE:\(value)")
        let playlist = try MediaPlaylist.parse(Array(text.utf8))
        #expect(playlist.discontinuitySequence == nil)
        #expect(playlist.unreadableTags == ["#EXT-X-DISCONTINUITY-SEQUENCE:\(value)"])
    }

    @Test func aMediaSequenceAboveTwoToTheSixtyFourMinusOneIsReportedAndAMaximalOneIsRead() throws {
        let base = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:%@\n#EXTINF:2,\na.ts\n"
        let over = try MediaPlaylist.parse(Array(base.replacingOccurrences(of: "%@", with: "18446744073709551616").utf8))
        #expect(over.mediaSequence == nil)
        #expect(over.unreadableTags == ["#EXT-X-MEDIA-SEQUENCE:18446744073709551616"])
        let maximal = try MediaPlaylist.parse(Array(base.replacingOccurrences(of: "%@", with: "18446744073709551615").utf8))
        #expect(maximal.mediaSequence == UInt64.max)
    }

    @Test func theBuilderWritesTheMediaSequenceOfTheShape() {
        let shape = SubtitlePlaylistShape(playlistType: nil, ended: false, mediaSequence: 42)
        let text = String(decoding: SubtitlePlaylistBuilder.segmented(durations: [4], uri: { "\(42 + $0).vtt" }, shape: shape), as: UTF8.self)
        #expect(text.contains("\n#EXT-X-MEDIA-SEQUENCE:42\n"))
        #expect(text.hasSuffix("#EXTINF:4,\n42.vtt\n"))
    }
}
