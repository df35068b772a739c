import Foundation
import Testing
import TestSupport
@testable import HLS

/// A TTML document in the TTML namespace with the usual prefixes bound; `head` and `body` are inserted as given.
func ttml(_ body: String, head: String = "", attributes: String = "") -> [UInt8] {
    Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter"
            xmlns:tts="http://www.w3.org/ns/ttml#styling" \(attributes)><head>\(head)</head><body>\(body)</body></tt>
        """.utf8)
}

func cues(_ body: String, head: String = "", attributes: String = "") throws -> [WebVTTCue] {
    try TTMLConverter.webVTT(from: ttml(body, head: head, attributes: attributes)).cues
}

/// Timing: time containment (TTML1 §10.4), begin/end/dur, span-timed paragraphs, ordering and limits.
@Suite struct TTMLConverterTests {
    @Test func beginsAddUpThroughBodyDivAndParagraph() throws {
        let body = "<div begin='5s'><p begin='1s' end='2s'>x</p></div>"
        #expect(try TTMLConverter.webVTT(from: Array("""
            <tt xmlns="http://www.w3.org/ns/ttml"><body begin="10s">\(body)</body></tt>
            """.utf8)).cues == [WebVTTCue(start: 16_000, end: 17_000, payload: ["x"])])
    }

    @Test func theActiveEndIsTheEarlierOfEndAndBeginPlusDur() throws {
        #expect(try cues("<p begin='1s' dur='5s' end='3s'>a</p>") == [WebVTTCue(start: 1000, end: 3000, payload: ["a"])])
        #expect(try cues("<p begin='1s' dur='1s' end='5s'>a</p>") == [WebVTTCue(start: 1000, end: 2000, payload: ["a"])])
        #expect(try cues("<p begin='1s' dur='500ms'>a</p>") == [WebVTTCue(start: 1000, end: 1500, payload: ["a"])])
        // `end` counts from the parent's begin, like `begin`; `dur` from the element's own begin.
        #expect(try cues("<div begin='10s'><p begin='1s' end='3s'>a</p><p begin='1s' dur='3s'>b</p></div>") == [
            WebVTTCue(start: 11_000, end: 13_000, payload: ["a"]), WebVTTCue(start: 11_000, end: 14_000, payload: ["b"]),
        ])
    }

    @Test func childrenAreClippedToTheirParentsInterval() throws {
        let result = try cues("""
            <div begin='10s' end='12s'><p begin='1s' end='5s'>clipped</p><p begin='3s' end='4s'>never</p>\
            <p>whole div</p></div>
            """)
        #expect(result == [
            WebVTTCue(start: 10_000, end: 12_000, payload: ["whole div"]), WebVTTCue(start: 11_000, end: 12_000, payload: ["clipped"]),
        ])
    }

    @Test func anUntimedParagraphLastsUntilTheDocumentsLastTime() throws {
        #expect(try cues("<p>always</p><p begin='1s' end='4s'>timed</p>") == [
            WebVTTCue(start: 0, end: 4000, payload: ["always"]), WebVTTCue(start: 1000, end: 4000, payload: ["timed"]),
        ])
        // A div with a begin and no end does not end its children (TTML1 §10.4: implicit, indefinite).
        #expect(try cues("<div begin='20s'><p begin='0.5s' dur='2s'>late</p></div>") == [
            WebVTTCue(start: 20_500, end: 22_500, payload: ["late"]),
        ])
    }

    @Test func sequentialContainersStartEachChildWhenThePreviousEnds() throws {
        let result = try cues("""
            <div begin='20s' timeContainer='seq'><p dur='1s'>one</p><p begin='500ms' dur='1s'>two</p>\
            <p dur='2s' end='1s'>three</p></div>
            """)
        #expect(result == [
            WebVTTCue(start: 20_000, end: 21_000, payload: ["one"]), WebVTTCue(start: 21_500, end: 22_500, payload: ["two"]),
            WebVTTCue(start: 22_500, end: 23_500, payload: ["three"]),
        ])
    }

    @Test func spansWithTheirOwnTimingSplitTheParagraphIntoIntervals() throws {
        let result = try cues("""
            <p begin='3s' end='6s'>Words <span begin='1s'>appear</span> <span begin='2s'>one by one</span></p>\
            <p begin='10s' end='14s'><span end='1s'>gone</span><span begin='2s' end='3s'>back</span></p>
            """)
        #expect(result == [
            WebVTTCue(start: 3000, end: 4000, payload: ["Words"]), WebVTTCue(start: 4000, end: 5000, payload: ["Words appear"]),
            WebVTTCue(start: 5000, end: 6000, payload: ["Words appear one by one"]),
            WebVTTCue(start: 10_000, end: 11_000, payload: ["gone"]), WebVTTCue(start: 12_000, end: 13_000, payload: ["back"]),
        ])
    }

    @Test func cuesAreSortedByStartAndMayOverlap() throws {
        #expect(try cues("<p begin='5s' end='9s'>b</p><p begin='1s' end='6s'>a</p><p begin='5s' end='6s'>c</p>") == [
            WebVTTCue(start: 1000, end: 6000, payload: ["a"]), WebVTTCue(start: 5000, end: 9000, payload: ["b"]),
            WebVTTCue(start: 5000, end: 6000, payload: ["c"]),
        ])
    }

    @Test func emptyAndZeroLengthParagraphsGiveNoCue() throws {
        #expect(try cues("<p begin='1s' end='2s'> <span> </span><br/></p><p begin='3s' end='3s'>zero</p><p begin='4s' end='5s'>x</p>")
                == [WebVTTCue(start: 4000, end: 5000, payload: ["x"])])
    }

    @Test func anElementWithAnUnreadableTimeIsLeftOut() throws {
        #expect(try cues("<p begin='soon' end='2s'>a</p><p begin='1s' end='2s'>b</p><div begin='x'><p>c</p></div>") ==
                [WebVTTCue(start: 1000, end: 2000, payload: ["b"])])
        #expect(throws: SubtitleError.noTTMLCues(reason: "1 left out: <p begin=\"soon\">: not a time expression")) {
            try cues("<p begin='soon'>a</p>")
        }
        #expect(try cues("").isEmpty)
        #expect(try TTMLConverter.webVTT(from: Array("<tt xmlns='http://www.w3.org/ns/ttml'/>".utf8)).cues.isEmpty)
    }

    @Test func readingStopsAfterMaxCues() throws {
        let body = (0..<10).map { "<p begin='\($0)s' end='\($0 + 1)s'>\($0)</p>" }.joined()
        let document = try TTMLConverter.webVTT(from: ttml(body), maxCues: 3)
        #expect(document.cues.map(\.payload) == [["0"], ["1"], ["2"]])
        #expect(try TTMLConverter.webVTT(from: ttml(body), maxCues: 0).cues.isEmpty)
    }

    @Test func splittingTooFinelyIsRefused() throws {
        let spans = (0..<6000).map { "<span begin='\($0)ms'>w</span>" }.joined()
        #expect(throws: SubtitleError.ttmlTooLarge(reason: "paragraphs split by span timing into too many intervals")) {
            try cues("<p end='10s'>\(spans)</p>")
        }
    }

    @Test func oversizedSourcesAreRefusedBeforeParsing() {
        let bytes = [UInt8](repeating: 0x20, count: TTMLConverter.maximumBytes + 1)
        #expect(throws: SubtitleError.ttmlTooLarge(reason: "\(bytes.count) bytes, over \(TTMLConverter.maximumBytes)")) {
            try TTMLConverter.webVTT(from: bytes)
        }
    }

    @Test func olderDFXPNamespacesAreRead() throws {
        for namespace in ["http://www.w3.org/2006/10/ttaf1", "http://www.w3.org/2006/04/ttaf1"] {
            let source = "<tt xmlns='\(namespace)' xmlns:tts='\(namespace)#styling'><body><div>" +
                "<p begin='1s' end='2s' tts:fontStyle='italic'>old</p></div></body></tt>"
            #expect(try TTMLConverter.webVTT(from: Array(source.utf8)).cues == [WebVTTCue(start: 1000, end: 2000, payload: ["<i>old</i>"])])
        }
    }

    @Test func theRootMustBeTTInATTMLNamespace() {
        #expect(throws: SubtitleError.notTTML(root: "html")) { try TTMLConverter.webVTT(from: Array("<html/>".utf8)) }
        #expect(throws: SubtitleError.notTTML(root: "{urn:other}tt")) {
            try TTMLConverter.webVTT(from: Array("<tt:tt xmlns:tt='urn:other'/>".utf8))
        }
        #expect(throws: SubtitleError.notTTML(root: "tt")) { try TTMLConverter.webVTT(from: Array("<tt/>".utf8)) }
    }

    @Test func timeBasesWithoutAMediaMappingAreRefused() throws {
        #expect(throws: SubtitleError.unsupportedTTMLTimeBase("clock")) {
            try cues("<p begin='1s' end='2s'>a</p>", attributes: "ttp:timeBase='clock'")
        }
        #expect(throws: SubtitleError.unsupportedTTMLTimeBase("smpte with discontinuous markers")) {
            try cues("<p begin='1s' end='2s'>a</p>", attributes: "ttp:timeBase='smpte' ttp:markerMode='discontinuous'")
        }
        #expect(try cues("<p begin='00:00:01:12' end='00:00:02:00'>a</p>", attributes: "ttp:timeBase='smpte' ttp:frameRate='24'")
                == [WebVTTCue(start: 1500, end: 2000, payload: ["a"])])
    }

    @Test func utf16WithABOMIsRead() throws {
        let source = String(decoding: ttml("<p begin='1s' end='2s'>été</p>"), as: UTF8.self)
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in source.utf16 { utf16 += [UInt8(truncatingIfNeeded: unit), UInt8(truncatingIfNeeded: unit >> 8)] }
        #expect(try TTMLConverter.webVTT(from: utf16).cues == [WebVTTCue(start: 1000, end: 2000, payload: ["été"])])
    }

    @Test func everyTruncationOfAFixtureFailsCleanly() throws {
        let bytes = try fixture("subtitles/dfxp-2006-04.xml")
        let rootEnd = try #require(bytes.indices.last { bytes[$0] == UInt8(ascii: ">") })
        // Every cut before the root's closing `>` leaves an element open (or no root at all): malformed XML.
        for length in 0...rootEnd {
            do {
                _ = try TTMLConverter.webVTT(from: Array(bytes[..<length]))
                Issue.record("a cut at \(length) bytes was accepted")
            } catch {
                guard case .malformedXML = error else { Issue.record("cut at \(length): \(error)"); continue }
            }
        }
        #expect(try TTMLConverter.webVTT(from: Array(bytes[...rootEnd])).cues.count == 3)
    }
}
