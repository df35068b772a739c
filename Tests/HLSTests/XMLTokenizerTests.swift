import Testing
@testable import HLS

@Suite struct XMLTokenizerTests {
    private func parse(_ text: String) throws(SubtitleError) -> XMLTree.Element {
        try XMLTokenizer.parse(Array(text.utf8))
    }

    private func text(of element: XMLTree.Element) -> String {
        element.children.map { node in
            switch node {
            case .text(let text): return text
            case .element(let child): return text(of: child)
            }
        }.joined()
    }

    private func isMalformed(_ text: String) -> Bool {
        do {
            _ = try parse(text)
            return false
        } catch {
            if case .malformedXML = error { return true }
            return false
        }
    }

    @Test func predefinedEntitiesAndCharacterReferencesAreDecoded() throws {
        let root = try parse("<a>&amp;&lt;&gt;&quot;&apos; &#65;&#x42;&#x43;&#xe9;&#128512;</a>")
        #expect(text(of: root) == "&<>\"' ABCé😀")
    }

    @Test func forbiddenCodePointsBecomeTheReplacementCharacter() throws {
        #expect(text(of: try parse("<a>&#0;&#xD800;&#x110000;&#1;</a>")) == "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}")
    }

    @Test func badReferencesAreRefused() {
        for text in ["<a>&#;</a>", "<a>&#x;</a>", "<a>&#12a;</a>", "<a>&#X41;</a>", "<a>&nbsp;</a>", "<a>fish & chips</a>",
                     "<a>&amp</a>", "<a>&#99999999999;</a>", "<a b='&bogus;'/>"] {
            #expect(isMalformed(text), "\(text)")
        }
    }

    @Test func prefixesResolveThroughDeclarationsNotSpelling() throws {
        let root = try parse("""
            <x:tt xmlns:x="http://www.w3.org/ns/ttml" xmlns:tts="urn:elsewhere" xmlns:s="http://www.w3.org/ns/ttml#styling">
            <body xmlns="urn:default" tts:fontStyle="italic" s:fontWeight="bold" plain="1"/></x:tt>
            """)
        #expect(root.name == XMLTree.Name(namespace: "http://www.w3.org/ns/ttml", local: "tt"))
        let body = try #require(root.elements.first)
        #expect(body.name == XMLTree.Name(namespace: "urn:default", local: "body"))
        #expect(body.attribute("fontStyle", namespace: "urn:elsewhere") == "italic")
        #expect(body.attribute("fontWeight", namespace: "http://www.w3.org/ns/ttml#styling") == "bold")
        // Unprefixed attributes are in no namespace, whatever the default namespace is.
        #expect(body.attribute("plain") == "1")
        #expect(body.attributes.count == 3)
    }

    @Test func undeclaredPrefixesAreRefused() {
        #expect(isMalformed("<tt:tt/>"))
        #expect(isMalformed("<tt a:b='1'/>"))
        #expect(isMalformed("<tt :b='1'/>"))
    }

    @Test func declarationsCommentsProcessingInstructionsAndDoctypeAreSkipped() throws {
        let root = try parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment with <tags> -->
            <!DOCTYPE tt [ <!ENTITY x "]>"> <!ELEMENT tt ANY> ]>
            <?style sheet?>
            <tt>a<!-- b -->c<?pi ?>d<![CDATA[<e> & ]]>f</tt>
            <!-- after -->
            """)
        #expect(text(of: root) == "acd<e> & f")
        #expect(root.children.count == 1)  // adjacent character data is one text node
    }

    @Test func lineEndsAndAttributeWhitespaceAreNormalized() throws {
        let root = try parse("<a v='x\ty\r\nz'>1\r\n2\r3</a>")
        #expect(root.attribute("v") == "x y z")
        #expect(text(of: root) == "1\n2\n3")
        #expect(try parse("<a v=\"it's\" w = 'say \"hi\"'/>").attribute("w") == "say \"hi\"")
    }

    @Test func malformedDocumentsAreRefusedWithAReason() {
        for text in ["", "   ", "<a>", "<a></b>", "<a><b></a></b>", "<a/><b/>", "text<a/>", "<a/>text", "<a b='1' b='2'/>",
                     "<a b=1/>", "<a b/>", "<a b='1'c='2'/>", "<a b='<'/>", "<a b='1", "<a", "<1a/>", "<a><!-- x</a>",
                     "<a><![CDATA[x</a>", "<a><?pi</a>", "<!DOCTYPE a [", "</a>", "<a></a></a>", "<a/ >", "<a><!DOCTYPE a></a>"] {
            #expect(isMalformed(text), "\(text)")
        }
    }

    @Test func nestingIsLimited() throws {
        let limit = XMLTree.maximumDepth
        let deepest = String(repeating: "<a>", count: limit) + String(repeating: "</a>", count: limit)
        #expect(throws: Never.self) { try parse(deepest) }
        let tooDeep = String(repeating: "<a>", count: limit + 1) + String(repeating: "</a>", count: limit + 1)
        #expect(throws: SubtitleError.xmlNestingTooDeep(limit: limit)) { try parse(tooDeep) }
        // Far deeper input fails the same way, without recursion.
        #expect(throws: SubtitleError.xmlNestingTooDeep(limit: limit)) { try parse(String(repeating: "<a>", count: 200_000)) }
    }

    @Test func manyAttributesAndTextChunksAreReadInOnePass() throws {
        let attributes = (0..<50_000).map { "a\($0)='\($0)'" }.joined(separator: " ")
        #expect(try parse("<a \(attributes)/>").attributes.count == 50_000)
        let chunks = String(repeating: "x<!---->", count: 100_000)
        let root = try parse("<a>\(chunks)</a>")
        #expect(root.children.count == 1)
        #expect(text(of: root) == String(repeating: "x", count: 100_000))
    }

    @Test func namespaceDeclarationsInScopeAreLimited() throws {
        let limit = XMLTokenizer.maximumNamespaceDeclarations
        // `xml` is always bound, so `limit - 1` more fit.
        let fits = (1..<limit).map { "xmlns:p\($0)='urn:\($0)'" }.joined(separator: " ")
        #expect(throws: Never.self) { try parse("<a \(fits)/>") }
        #expect(isMalformed("<a \(fits) xmlns:extra='urn:x'/>"))
    }
}
