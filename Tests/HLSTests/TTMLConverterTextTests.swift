import Testing
@testable import HLS

/// Cue text: line breaks, styling, escaping and whitespace handling (TTML1 §7.2.3, §8).
@Suite struct TTMLConverterTextTests {
    private func payload(_ paragraph: String, head: String = "", attributes: String = "") throws -> [String] {
        try cues("<p begin='1s' end='2s'\(attributes)>\(paragraph)</p>", head: head).first?.payload ?? []
    }

    @Test func lineBreaksAndNestedSpansKeepTheirText() throws {
        #expect(try payload("One<br/>two <span>and <span>three</span></span><br />four") == ["One", "two and three", "four"])
    }

    @Test func italicBoldAndUnderlineBecomeWebVTTTags() throws {
        #expect(try payload("<span tts:fontStyle='italic'>i</span> <span tts:fontWeight='bold'>b</span> " +
                            "<span tts:textDecoration='underline'>u</span> <span tts:color='red' tts:fontSize='2c'>plain</span>")
                == ["<i>i</i> <b>b</b> <u>u</u> plain"])
        #expect(try payload("<span tts:fontStyle='italic' tts:fontWeight='bold' tts:textDecoration='underline lineThrough'>all</span>")
                == ["<b><i><u>all</u></i></b>"])
    }

    @Test func stylesApplyThroughReferencesChainsAndRegions() throws {
        let head = """
            <styling><style xml:id='it' tts:fontStyle='italic'/><style xml:id='strong' style='it' tts:fontWeight='bold'/>\
            <style xml:id='loop' style='loop' tts:textDecoration='underline'/></styling>\
            <layout><region xml:id='r' tts:fontStyle='italic'/><region xml:id='r2'><style tts:fontWeight='bold'/></region></layout>
            """
        #expect(try payload("<span style='it'>a</span> <span style='strong'>b</span> <span style='loop'>c</span>", head: head)
                == ["<i>a</i> <b><i>b</i></b> <u>c</u>"])
        #expect(try payload("region", head: head, attributes: " region='r'") == ["<i>region</i>"])
        #expect(try payload("nested", head: head, attributes: " region='r2'") == ["<b>nested</b>"])
        #expect(try payload("unknown", head: head, attributes: " style='missing'") == ["unknown"])
    }

    @Test func styleReferencesFanningOutAndCyclingResolveOnce() throws {
        // Each style names the one before it twenty times: followed naively, 20^29 applications.
        let chain = (1..<30).map { index in
            "<style xml:id='s\(index)' style='\(Array(repeating: "s\(index - 1)", count: 20).joined(separator: " "))'/>"
        }.joined()
        let head = "<styling><style xml:id='s0' tts:fontStyle='italic'/>\(chain)" +
            "<style xml:id='loop' style='loop loop' tts:textDecoration='underline'/></styling>"
        #expect(try payload("wide", head: head, attributes: " style='s29 s29'") == ["<i>wide</i>"])
        #expect(try payload("cycle", head: head, attributes: " style='loop'") == ["<u>cycle</u>"])
        // A chain that runs forward deeper than the limit stops contributing, without recursing through all of it.
        let long = (0..<4999).map { "<style xml:id='c\($0)' style='c\($0 + 1)'/>" }.joined()
        let longHead = "<styling>\(long)<style xml:id='c4999' tts:fontWeight='bold'/></styling>"
        #expect(try payload("near", head: longHead, attributes: " style='c4995'") == ["<b>near</b>"])
        #expect(try payload("far", head: longHead, attributes: " style='c0'") == ["far"])
    }

    @Test func innerStylesOverrideInheritedOnes() throws {
        #expect(try payload("<span tts:fontStyle='italic'>a <span tts:fontStyle='normal'>b</span> c</span>")
                == ["<i>a </i>b<i> c</i>"])
        #expect(try payload("<span tts:textDecoration='underline'>a <span tts:textDecoration='none'>b</span></span>")
                == ["<u>a </u>b"])
        #expect(try payload("x", attributes: " tts:fontWeight='bold'") == ["<b>x</b>"])
    }

    @Test func textIsWebVTTEscaped() throws {
        #expect(try payload("Fish &amp; chips &lt;cheap&gt; <![CDATA[<b>]]> a-->b") == ["Fish &amp; chips &lt;cheap&gt; &lt;b&gt; a--&gt;b"])
    }

    @Test func defaultWhitespaceCollapsesAndTrimsAtLineEdges() throws {
        #expect(try payload("\n    Hello\n\t  world  \n") == ["Hello world"])
        #expect(try payload("<span>a </span> <span> b</span>") == ["a b"])
        #expect(try payload("a <br/>\n   b") == ["a", "b"])
        // Collapsed whitespace keeps the style of the text it was written in.
        #expect(try payload("<span tts:fontStyle='italic'>a </span>b") == ["<i>a </i>b"])
    }

    @Test func preservedWhitespaceKeepsSpacesAndBreaksOnSourceLineEnds() throws {
        #expect(try payload("  two  spaces\nnext line", attributes: " xml:space='preserve'") == ["  two  spaces", "next line"])
        #expect(try cues("<div xml:space='preserve'><p begin='0s' end='1s'>a\r\nb <span xml:space='default'>c\n  d</span></p></div>")
                == [WebVTTCue(start: 0, end: 1000, payload: ["a", "b c d"])])
    }

    @Test func stylingAttributesCountOnlyInTheStylingNamespace() throws {
        let source = """
            <tt xmlns='http://www.w3.org/ns/ttml' xmlns:tts='urn:not-styling' xmlns:s='http://www.w3.org/ns/ttml#styling'>\
            <body><p begin='0s' end='1s'><span tts:fontStyle='italic'>a</span> <span s:fontStyle='italic'>b</span></p></body></tt>
            """
        #expect(try TTMLConverter.webVTT(from: Array(source.utf8)).cues.first?.payload == ["a <i>b</i>"])
    }

    @Test func foreignElementsAndMetadataInsideParagraphsAreSkipped() throws {
        let source = """
            <tt xmlns='http://www.w3.org/ns/ttml' xmlns:m='urn:meta'><body><div><metadata>no</metadata>\
            <p begin='0s' end='1s'>a<m:note>hidden</m:note><metadata>gone</metadata> b</p></div></body></tt>
            """
        #expect(try TTMLConverter.webVTT(from: Array(source.utf8)).cues.first?.payload == ["a b"])
    }
}

@Suite struct TTMLSniffingTests {
    @Test func ttmlIsRecognizedAfterAnyPrologue() {
        #expect(TTMLConverter.looksLikeTTML(ttml("<p>x</p>")))
        #expect(TTMLConverter.looksLikeTTML(Array("\u{FEFF}\n<!-- c --><!DOCTYPE tt [<!ENTITY a 'b'>]><?pi?><tt:tt xmlns:tt='x'>".utf8)))
        #expect(TTMLConverter.looksLikeTTML([0xFF, 0xFE] + Array("<tt>".utf8).flatMap { [$0, 0] }))
    }

    @Test func otherSourcesAreNotTTML() {
        for text in ["WEBVTT\n\n", "1\n00:00:01,000 --> 00:00:02,000\nx\n", "<html><tt>", "<?xml version='1.0'?><ttx/>",
                     "<!-- unterminated", "", "<?xml"] {
            #expect(!TTMLConverter.looksLikeTTML(Array(text.utf8)), "\(text)")
        }
        #expect(TTMLConverter.looksLikeTTML(Array("<tt".utf8)))  // a prefix: the first element is tt
    }
}
