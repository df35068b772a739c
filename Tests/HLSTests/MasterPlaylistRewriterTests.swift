import HLS
import Testing

/// The rewriter's rules (HLS-NOTES.md, RFC 8216 §4.3.4) on small hand-written masters.
@Suite struct MasterPlaylistRewriterTests {
    let english = SubtitleTrack(name: "English", language: "en", isDefault: true, autoselect: true)
    let french = SubtitleTrack(name: "French", language: "fr")

    func rewrite(_ text: String, tracks: [SubtitleTrack]? = nil, groupID: String = "subs") throws -> String {
        let rewriter = MasterPlaylistRewriter(tracks: tracks ?? [english, french], groupID: groupID)
        let output = try rewriter.rewrite(Array(text.utf8), uri: { "t\($0).m3u8" })
        return String(decoding: output, as: UTF8.self)
    }

    @Test func aTrackWithEveryAttributeIsWrittenInTheDocumentedOrder() throws {
        let track = SubtitleTrack(
            name: "English (SDH)", language: "en-US", assocLanguage: "en", isDefault: true, autoselect: false,
            forced: true, characteristics: ["public.accessibility.transcribes-spoken-dialog", "public.easy-to-read"]
        )
        let output = try rewrite("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", tracks: [track])
        // DEFAULT=YES forces AUTOSELECT=YES (RFC 8216 §4.3.4.1).
        #expect(output == """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English (SDH)",LANGUAGE="en-US",ASSOC-LANGUAGE="en",\
            DEFAULT=YES,AUTOSELECT=YES,FORCED=YES,CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,\
            public.easy-to-read",URI="t0.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES="subs"
            v.m3u8

            """)
    }

    @Test func theGroupIDIsConfigurable() throws {
        let output = try rewrite("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", tracks: [french], groupID: "text")
        #expect(output == """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="text",NAME="French",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=NO,URI="t0.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES="text"

            """ + "v.m3u8\n")
    }

    @Test func tracksJoinEveryExistingGroupWithTheSameNamesAndDefaultsInEach() throws {
        let master = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="a",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="a/en.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="b",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="b/en.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES="a"
            lo.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2,SUBTITLES="b"
            hi.m3u8

            """
        let output = try rewrite(master)
        // Each group already has a DEFAULT=YES, so ours are DEFAULT=NO; "English" is taken, so "English (2)".
        #expect(output == """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="a",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="a/en.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="b",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="b/en.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="a",NAME="English (2)",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="t0.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="a",NAME="French",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=NO,URI="t1.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="b",NAME="English (2)",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="t0.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="b",NAME="French",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=NO,URI="t1.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES="a"
            lo.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2,SUBTITLES="b"
            hi.m3u8

            """)
        #expect(try rewrite(output) == output)
    }

    @Test func aNameTakenInOnlyOneGroupIsAvoidedInAllGroups() throws {
        let master = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="a",NAME="French",LANGUAGE="fr",URI="a/fr.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES="a"
            lo.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2,SUBTITLES="b"
            hi.m3u8
            """
        let output = try Playlist.parse(Array(try rewrite(master).utf8))
        let ours = output.lines.compactMap(\.attributes).filter { $0.value("URI") == "t1.m3u8" }
        #expect(ours.map { $0.value("GROUP-ID") } == ["a", "b"])
        #expect(ours.map { $0.value("NAME") } == ["French (2)", "French (2)"])
    }

    @Test func variantsWithoutSubtitlesInAMasterWithAGroupGetTheFirstGroup() throws {
        let master = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1
            a.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2,SUBTITLES="cc"
            b.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=3,SUBTITLES="dd"
            c.m3u8
            """
        let output = try rewrite(master, tracks: [french])
        // "cc" and "dd" are referenced but never defined: our track becomes their member.
        #expect(output == """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="cc",NAME="French",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=NO,URI="t0.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="dd",NAME="French",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=NO,URI="t0.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES="cc"
            a.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2,SUBTITLES="cc"
            b.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=3,SUBTITLES="dd"
            c.m3u8
            """)
    }

    @Test func anUnreferencedGroupWithOurIDIsLeftAloneAndOursGetsAFreeID() throws {
        let master = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Swedish",LANGUAGE="sv",DEFAULT=YES,AUTOSELECT=YES,URI="sv.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="subs-2",NAME="Main",URI="a.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1
            a.m3u8
            """
        let output = try rewrite(master, tracks: [english])
        #expect(output.contains(#"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs-3",NAME="English",LANGUAGE="en",DEFAULT=YES"#))
        #expect(output.contains(#"#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES="subs-3""#))
        #expect(try rewrite(output, tracks: [english]) == output)
    }

    @Test func onlyTheFirstDefaultTrackIsDefault() throws {
        let second = SubtitleTrack(name: "German", language: "de", isDefault: true, autoselect: true)
        let output = try rewrite("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", tracks: [english, second])
        #expect(output.components(separatedBy: "DEFAULT=YES").count == 2)
        #expect(output.contains(#"NAME="German",LANGUAGE="de",DEFAULT=NO,AUTOSELECT=YES"#))
    }

    @Test func tracksWithTheSameNameGetDistinctNames() throws {
        let other = SubtitleTrack(name: "English", language: "en", forced: true)
        let output = try rewrite("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", tracks: [english, other])
        #expect(output.contains(#"NAME="English","#))
        #expect(output.contains(#"NAME="English (2)","#))
        #expect(try rewrite(output, tracks: [english, other]) == output)
    }

    @Test func aMissingFinalNewlineStaysMissingWhenRenditionsGoLast() throws {
        let master = "#EXTM3U\r\n#EXT-X-STREAM-INF:BANDWIDTH=1\r\nv.m3u8\r\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"x\""
        let output = try rewrite(master, tracks: [french])
        #expect(output == "#EXTM3U\r\n#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES=\"subs\"\r\nv.m3u8\r\n"
            + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"x\"\r\n"
            + "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"French\",LANGUAGE=\"fr\",DEFAULT=NO,AUTOSELECT=NO,URI=\"t0.m3u8\"")
    }

    @Test func versionAndClosedCaptionsAreLeftAlone() throws {
        let master = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=NONE\nv.m3u8\n"
        let output = try rewrite(master, tracks: [french])
        #expect(output.contains("#EXT-X-VERSION:3\n"))
        #expect(output.contains("#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=NONE,SUBTITLES=\"subs\"\n"))
    }

    @Test func aMediaPlaylistIsNotAMaster() throws {
        let media = try PlaylistFixtures.bytes("vod-ts/v0/index.m3u8")
        #expect(throws: PlaylistError.notAMaster) {
            try MasterPlaylistRewriter(tracks: [english]).rewrite(media, uri: { _ in "x" })
        }
    }

    @Test func aNonPlaylistIsNotAPlaylist() {
        #expect(throws: PlaylistError.notAPlaylist) {
            try MasterPlaylistRewriter(tracks: [english]).rewrite(Array("<html></html>".utf8), uri: { _ in "x" })
        }
    }

    @Test(arguments: [
        (SubtitleTrack(name: "Say \"hi\"", language: "en"), "t.m3u8", "NAME"),
        (SubtitleTrack(name: "English", language: "en\n"), "t.m3u8", "LANGUAGE"),
        (SubtitleTrack(name: "English", language: "en", assocLanguage: "fr\r"), "t.m3u8", "ASSOC-LANGUAGE"),
        (SubtitleTrack(name: "English", language: "en", characteristics: ["a\"b"]), "t.m3u8", "CHARACTERISTICS"),
        (SubtitleTrack(name: "English", language: "en"), "t.m3u8\r\n#EXT-X-ENDLIST", "URI"),
    ])
    func valuesNoQuotedStringCanCarryAreRefused(track: SubtitleTrack, uri: String, attribute: String) {
        let master = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n".utf8)
        #expect(throws: PlaylistError.invalidTrackValue(track: 0, attribute: attribute)) {
            try MasterPlaylistRewriter(tracks: [track]).rewrite(master, uri: { _ in uri })
        }
    }

    @Test func aGroupIDWithAQuoteIsRefused() {
        let master = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n".utf8)
        #expect(throws: PlaylistError.invalidAttribute(name: "GROUP-ID")) {
            try MasterPlaylistRewriter(tracks: [english], groupID: "a\"b").rewrite(master, uri: { _ in "x" })
        }
    }

    @Test func aVariantWithAnUnterminatedQuoteIsRefusedNotCorrupted() {
        let master = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1\nv.m3u8\n".utf8)
        #expect(throws: PlaylistError.malformedAttributeList(line: 2)) {
            try MasterPlaylistRewriter(tracks: [english]).rewrite(master, uri: { _ in "x" })
        }
    }

    @Test func anExistingSubtitlesAttributeIsNeverDuplicatedEvenUnquoted() throws {
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES=NONE\nv.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\nw.m3u8\n"
        let output = try rewrite(master, tracks: [french])
        #expect(output.contains("#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES=NONE\n"))
        #expect(output.contains("#EXT-X-STREAM-INF:BANDWIDTH=2,SUBTITLES=\"subs\"\n"))
        #expect(try rewrite(output, tracks: [french]) == output)
    }

    @Test func aMasterWhoseOnlyReferenceIsUnjoinableStaysIdempotent() throws {
        // An empty unquoted SUBTITLES names no group we can join; our group is added once, not again.
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES=\nv.m3u8\n"
        let output = try rewrite(master, tracks: [french])
        #expect(output.contains(#"GROUP-ID="subs""#))
        #expect(output.contains("#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES=\n"))
        #expect(try rewrite(output, tracks: [french]) == output)
    }

    @Test func withNoTracksTheMasterIsUnchanged() throws {
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n"
        let output = try rewrite(master, tracks: [])
        #expect(output == master)
    }
}
