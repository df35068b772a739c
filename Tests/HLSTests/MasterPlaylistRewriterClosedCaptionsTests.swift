import HLS
import Testing

/// `closedCaptionsNone`: CLOSED-CAPTIONS=NONE on variants that lack the attribute (RFC 8216 §4.3.4.2).
@Suite struct MasterPlaylistRewriterClosedCaptionsTests {
    let english = SubtitleTrack(name: "English", language: "en", isDefault: true, autoselect: true)

    func rewrite(_ text: String, closedCaptionsNone: Bool = true) throws -> (text: String, outcome: MasterPlaylistRewriter.ClosedCaptionsOutcome?) {
        let rewriter = MasterPlaylistRewriter(tracks: [english], closedCaptionsNone: closedCaptionsNone)
        let (bytes, outcome) = try rewriter.rewriteReporting(Array(text.utf8), uri: { "t\($0).m3u8" })
        return (String(decoding: bytes, as: UTF8.self), outcome)
    }

    static let media = #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="t0.m3u8""#

    @Test func everyVariantWithoutTheAttributeGetsNone() throws {
        let (text, outcome) = try rewrite("""
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1.42c00c,mp4a.40.2"
            a.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2
            b.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=3,URI="i.m3u8"

            """)
        // I-frame variants take no CLOSED-CAPTIONS (RFC 8216 §4.3.4.3 lists none).
        #expect(text == """
            #EXTM3U
            \(Self.media)
            #EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1.42c00c,mp4a.40.2",CLOSED-CAPTIONS=NONE,SUBTITLES="subs"
            a.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2,CLOSED-CAPTIONS=NONE,SUBTITLES="subs"
            b.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=3,URI="i.m3u8"

            """)
        #expect(outcome == .added(variants: 2))
    }

    @Test func anExistingNoneIsKeptAndTheOthersJoinIt() throws {
        let (text, outcome) = try rewrite("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=NONE\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8\n")
        #expect(text == "#EXTM3U\n\(Self.media)\n#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=NONE,SUBTITLES=\"subs\"\na.m3u8\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=2,CLOSED-CAPTIONS=NONE,SUBTITLES=\"subs\"\nb.m3u8\n")
        #expect(outcome == .added(variants: 1))
    }

    @Test func aGroupOnEveryVariantIsKept() throws {
        let master = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"
            #EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS="cc"
            a.m3u8

            """
        let (text, outcome) = try rewrite(master)
        #expect(text.contains("#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=\"cc\",SUBTITLES=\"subs\"\n"))
        #expect(!text.contains("NONE"))
        #expect(outcome == .alreadyPresent)
    }

    @Test func aMasterWhereSomeVariantsNameAGroupAndOthersNothingIsLeftUnchanged() throws {
        let (text, outcome) = try rewrite("""
            #EXTM3U
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"
            #EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS="cc"
            a.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2
            b.m3u8

            """)
        // NONE on b would disagree with a's group (RFC 8216 §4.3.4.2); the subtitles still go in.
        #expect(!text.contains("NONE"))
        #expect(text.contains("#EXT-X-STREAM-INF:BANDWIDTH=2,SUBTITLES=\"subs\"\n"))
        #expect(outcome == .mixed)
    }

    @Test func aVariantWhoseAttributesCannotBeEditedLeavesEveryVariantWithoutNone() throws {
        // A duplicated attribute (RFC 8216 §4.2 forbids it) makes the third list uneditable: NONE on the
        // first two alone would make the variants disagree.
        let (text, outcome) = try rewrite("""
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1
            a.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2
            b.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=3,BANDWIDTH=4
            c.m3u8

            """)
        #expect(outcome == .unreadableVariant)
        #expect(!text.contains("CLOSED-CAPTIONS"))
    }

    @Test func offByDefaultTheAttributeIsNeverAdded() throws {
        let (text, outcome) = try rewrite("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", closedCaptionsNone: false)
        #expect(!text.contains("CLOSED-CAPTIONS"))
        #expect(outcome == nil)
    }

    @Test func rewritingTwiceChangesNothingMore() throws {
        let once = try rewrite("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n").text
        let (twice, outcome) = try rewrite(once)
        #expect(twice == once)
        #expect(outcome == .alreadyPresent)
    }
}
