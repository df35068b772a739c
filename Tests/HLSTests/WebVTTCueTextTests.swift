@testable import HLS
import Testing

/// A cue keeps its text as one String, lines joined by LF (`WebVTTCue.text`); its lines as a list are
/// `payload`, which reads and writes what serialization writes.
@Suite struct WebVTTCueTextTests {
    @Test func linesAreJoinedByLineFeedsAndReadBackAsTheSameLines() {
        let cue = WebVTTCue(start: 0, end: 1_000, payload: ["<i>First</i> line", "second — line", " "])
        #expect(cue.text == "<i>First</i> line\nsecond — line\n ")
        #expect(cue.payload == ["<i>First</i> line", "second — line", " "])
        #expect(WebVTTCue(start: 0, end: 1, payload: []).text == "")
        #expect(WebVTTCue(start: 0, end: 1, payload: []).payload == [])
    }

    @Test func emptyLinesAreLeftOutAndLineBreaksInsideALineBecomeSpacesAsSerializationWritesThem() {
        var cue = WebVTTCue(start: 0, end: 1_000, payload: ["", "a\r\nb", "", "c\rd\ne", ""])
        #expect(cue.payload == ["a  b", "c d e"])
        #expect(cue == WebVTTCue(start: 0, end: 1_000, payload: ["a  b", "c d e"]))
        cue.payload.append("f")
        #expect(cue.text == "a  b\nc d e\nf")
        let file = String(decoding: WebVTTDocument(cues: [cue]).serialized(), as: UTF8.self)
        #expect(file == "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\na  b\nc d e\nf\n\n")
    }

    @Test func anArrowInTheTextIsEscapedButNotOneMadeOfTwoLines() {
        let cue = WebVTTCue(start: 0, end: 1_000, payload: ["a --> b", "--", "> c", "-", "->"])
        let file = String(decoding: WebVTTDocument(cues: [cue]).serialized(), as: UTF8.self)
        #expect(file == "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\na --&gt; b\n--\n> c\n-\n->\n\n")
    }

    @Test func everyLineEndGivesTheSameTextAndALoneLineFeedRunIsOneString() throws {
        let lines = ["1", "00:00:01.000 --> 00:00:02.000 align:start", "one", "two ✓", "three", "", "00:00:03.000 --> 00:00:04.000", "four", ""]
        var texts: [String] = []
        for ending in ["\n", "\r\n", "\r"] {
            let document = try WebVTTDocument.parse(Array(("WEBVTT" + ending + ending + lines.joined(separator: ending)).utf8))
            #expect(document.cues.map(\.payload) == [["one", "two ✓", "three"], ["four"]], "\(ending.utf8.map { $0 })")
            texts.append(contentsOf: document.cues.map(\.text))
        }
        #expect(texts == Array(repeating: ["one\ntwo ✓\nthree", "four"], count: 3).flatMap { $0 })
        // Mixed: CRLF then LF then CR inside one cue.
        let mixed = try WebVTTDocument.parse(Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\r\na\r\nb\nc\rd\n\n".utf8))
        #expect(mixed.cues.first?.text == "a\nb\nc\nd")
    }

    @Test func invalidUTF8InALineIsReplacedAsLineByLineDecodingWould() throws {
        let bytes = Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n".utf8) + [0x61, 0xE2, 0x82] + [0x0A] + [0xFF, 0x62] + Array("\n\n".utf8)
        let cue = try #require(try WebVTTDocument.parse(bytes).cues.first)
        #expect(cue.payload == ["a\u{FFFD}", "\u{FFFD}b"])
    }

    @Test func aValidFilesCuesKeepTheirTextAsRangesOfItsBytesAndCountThemOnce() throws {
        let file = Array("WEBVTT\n\nNOTE a long comment\n\n00:00:01.000 --> 00:00:02.000\none\ntwo\n\n00:00:03.000 --> 00:00:04.000\nthree\n".utf8)
        let document = try WebVTTDocument.parse(file)
        for cue in document.cues {
            guard case .bytes(let bytes, _) = cue.storage else {
                Issue.record("\(cue.text): a String of its own")
                continue
            }
            #expect(bytes == file)
        }
        #expect(document.cues.map(\.text) == ["one\ntwo", "three"])
        #expect(document.cues.map(\.textUTF8Count) == [7, 5])
        #expect(document.cues == [WebVTTCue(start: 1_000, end: 2_000, payload: ["one", "two"]), WebVTTCue(start: 3_000, end: 4_000, payload: ["three"])])
        #expect(document.retainedSourceBytes == file.capacity, "the whole file is held, counted once for all its cues")
        #expect(WebVTTDocument(cues: [WebVTTCue(start: 0, end: 1, payload: ["a"])]).retainedSourceBytes == 0)
        var edited = document
        edited.cues[0].payload = ["changed"]
        #expect(edited.cues[0].text == "changed")
        #expect(String(decoding: edited.serialized(), as: UTF8.self).contains("changed\n\n00:00:03.000 --> 00:00:04.000\nthree\n"))
    }

    @Test func aFileThatIsNotValidUTF8OrHasCRLFsGivesItsCuesStringsOfTheirOwn() throws {
        let invalid = try WebVTTDocument.parse(Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\na".utf8) + [0xFF] + Array("\n".utf8))
        let crlf = try WebVTTDocument.parse(Array("WEBVTT\r\n\r\n00:00:01.000 --> 00:00:02.000\r\na\r\nb\r\n".utf8))
        for document in [invalid, crlf] {
            #expect(document.retainedSourceBytes == 0)
            #expect(document.cues.count == 1)
        }
        #expect(invalid.cues.first?.text == "a\u{FFFD}")
        #expect(crlf.cues.first?.text == "a\nb")
    }
}
