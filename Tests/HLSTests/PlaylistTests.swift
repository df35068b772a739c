import HLS
import TestSupport
import Testing

@Suite struct PlaylistTests {
    @Test(arguments: PlaylistFixtures.masters.map { "corpus/master/" + $0 } + PlaylistFixtures.mediaPlaylists.map { "corpus/media/" + $0 }
        + ["vod-ts/master.m3u8", "vod-ts/v0/index.m3u8", "vod-fmp4/master.m3u8", "vod-fmp4/index.m3u8"])
    func everyCorpusPlaylistWritesBackByteIdentical(path: String) throws {
        let bytes = try PlaylistFixtures.bytes(path)
        let playlist = try Playlist.parse(bytes)
        #expect(playlist.serialized() == bytes)
    }

    @Test func corpusIsNotEmpty() {
        // Guards the parameterized tests against a fixture path that silently finds nothing.
        #expect(PlaylistFixtures.masters.count == 20)
        #expect(PlaylistFixtures.mediaPlaylists.count == 14)
    }

    @Test func aByteOrderMarkIsDroppedAndNothingElse() throws {
        let body = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n".utf8)
        let playlist = try Playlist.parse([0xEF, 0xBB, 0xBF] + body)
        #expect(playlist.serialized() == body)
    }

    @Test func lineEndingsArePreservedLineByLine() throws {
        let bytes = Array("#EXTM3U\r\n#EXT-X-VERSION:3\n\r\n#EXT-X-STREAM-INF:BANDWIDTH=1\r\na.m3u8".utf8)
        let playlist = try Playlist.parse(bytes)
        #expect(playlist.lines.map(\.ending) == [.crlf, .lf, .crlf, .crlf, .none])
        #expect(playlist.lines.map(\.kind) == [.tag, .tag, .blank, .tag, .uri])
        #expect(playlist.lineEnding == .crlf)
        #expect(playlist.serialized() == bytes)
    }

    @Test func linesAreClassifiedAsRFC8216SaysTagsCommentsURIsAndBlanks() throws {
        let text = "#EXTM3U\n#WV-VIDEO-SAR 1:1\n## note\n#EXT-X-CUSTOM:42\n \t\n  seg.ts \n#EXT-X-ENDLIST"
        let playlist = try Playlist.parse(Array(text.utf8))
        #expect(playlist.lines.map(\.kind) == [.tag, .comment, .comment, .tag, .blank, .uri, .tag])
        #expect(playlist.lines[3].tagName == "EXT-X-CUSTOM")
        #expect(playlist.lines[3].tagValue == "42")
        #expect(playlist.lines[5].uri == "seg.ts")
        #expect(playlist.lines[6].tagName == "EXT-X-ENDLIST")
        #expect(playlist.lines[6].tagValue == nil)
        #expect(!playlist.isMaster)
    }

    @Test func aMasterIsAPlaylistWithAStreamInf() throws {
        let master = try Playlist.parse(PlaylistFixtures.bytes("corpus/master/brightcove-absolute-query-uris.m3u8"))
        let media = try Playlist.parse(PlaylistFixtures.bytes("vod-ts/v0/index.m3u8"))
        #expect(master.isMaster)
        #expect(!media.isMaster)
    }

    @Test(arguments: [
        "", "\n", "<html><body>Not Found</body></html>", "WEBVTT\n\n00:00.000 --> 00:01.000\nhi\n",
        "#EXT-X-VERSION:3\n#EXTM3U\n", "# only a comment\n", "\u{FEFF}\u{FEFF}#EXTM3U\n", "#EXTM3UX\n", "#EXT\n",
    ])
    func bodiesWithoutAnEXTM3UHeaderAreNotPlaylists(text: String) {
        #expect(throws: PlaylistError.notAPlaylist) { try Playlist.parse(Array(text.utf8)) }
    }

    @Test func commentsAndBlankLinesBeforeTheHeaderAreToleratedAndKept() throws {
        let bytes = try PlaylistFixtures.bytes("corpus/master/comment-before-extm3u-space-in-attrs.m3u8")
        let playlist = try Playlist.parse(bytes)
        #expect(playlist.lines.first?.kind == .comment)
        #expect(playlist.serialized() == bytes)
    }

    @Test func binaryBytesAreNotAPlaylist() {
        let transportStreamPacket: [UInt8] = [0x47, 0x40, 0x00, 0x10] + [UInt8](repeating: 0xFF, count: 184)
        #expect(throws: PlaylistError.notAPlaylist) { try Playlist.parse(transportStreamPacket) }
    }

    @Test func invalidUTF8IsKeptByteForByte() throws {
        let bytes: [UInt8] = Array("#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID=\"x\",VALUE=\"".utf8) + [0xC3, 0x28, 0xFF] + Array("\"\nx".utf8)
        let playlist = try Playlist.parse(bytes)
        #expect(playlist.serialized() == bytes)
    }

    @Test func replacingAttributesKeepsTheTagPrefixAsSpelled() throws {
        var line = PlaylistLine(content: Array("#EXT-X-STREAM-INF:PROGRAM-ID=1, BANDWIDTH=40000".utf8), ending: .lf)
        var attributes = try #require(line.attributes)
        try attributes.set("SUBTITLES", quoted: "subs")
        line.replaceAttributes(with: attributes)
        #expect(line.text == "#EXT-X-STREAM-INF:PROGRAM-ID=1, BANDWIDTH=40000,SUBTITLES=\"subs\"")
        #expect(line.ending == .lf)
    }
}
