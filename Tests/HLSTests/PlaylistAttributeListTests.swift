import HLS
import Testing

@Suite struct PlaylistAttributeListTests {
    @Test func quotedStringsMayContainCommasAndKeepTheirQuotes() throws {
        let list = AttributeList(#"BANDWIDTH=1,CODECS="avc1.4d401f, mp4a.40.2",RESOLUTION=1280x720,URI="a,b=c.m3u8""#)
        #expect(list.names == ["BANDWIDTH", "CODECS", "RESOLUTION", "URI"])
        #expect(list.value("CODECS") == "avc1.4d401f, mp4a.40.2")
        #expect(list["CODECS"]?.rawValue == #""avc1.4d401f, mp4a.40.2""#)
        #expect(list["CODECS"]?.isQuoted == true)
        #expect(list["RESOLUTION"]?.isQuoted == false)
        #expect(list.value("URI") == "a,b=c.m3u8")
        #expect(list.problem == nil)
    }

    @Test(arguments: [
        #"PROGRAM-ID=1, BANDWIDTH=40000"#, "BANDWIDTH=300000,", #"CODECS="mp4a.40.5", AUDIO="audio-lo""#,
        "IV=0X0000000000000000000000000000000A,METHOD=AES-128", "A=1,,B=2", "", " ", "garbage", #"A="x"#,
    ])
    func unchangedListsSerializeByteIdentical(text: String) {
        #expect(AttributeList(text).text == text)
    }

    @Test func spacesAroundNamesAndValuesAreNotPartOfThem() {
        let list = AttributeList(#"PROGRAM-ID=1, BANDWIDTH=40000 , AUDIO= "lo""#)
        #expect(list.value("BANDWIDTH") == "40000")
        #expect(list.value("AUDIO") == "lo")
    }

    @Test func settingAnExistingValueReplacesItInPlace() throws {
        var list = AttributeList(#"TYPE=AUDIO, DEFAULT=YES,NAME="x""#)
        try list.set("DEFAULT", unquoted: "NO")
        try list.set("NAME", quoted: "y, z")
        #expect(list.text == #"TYPE=AUDIO, DEFAULT=NO,NAME="y, z""#)
    }

    @Test func appendingKeepsTheOriginalTextAsAPrefix() throws {
        var list = AttributeList("PROGRAM-ID=9,BANDWIDTH=300000,")
        try list.set("SUBTITLES", quoted: "subs")
        #expect(list.text == #"PROGRAM-ID=9,BANDWIDTH=300000,SUBTITLES="subs""#)
        var empty = AttributeList()
        try empty.set("TYPE", unquoted: "SUBTITLES")
        #expect(empty.text == "TYPE=SUBTITLES")
    }

    @Test(arguments: ["a\"b", "line\nbreak", "cr\rhere"])
    func quotedValuesRefuseQuotesAndLineBreaks(value: String) {
        var list = AttributeList("A=1")
        #expect(throws: PlaylistError.invalidAttribute(name: "NAME")) { try list.set("NAME", quoted: value) }
        #expect(list.text == "A=1")
    }

    @Test(arguments: ["", "a,b", "a b", "x\"", "YES\n"])
    func unquotedValuesRefuseSeparators(value: String) {
        var list = AttributeList("A=1")
        #expect(throws: PlaylistError.invalidAttribute(name: "DEFAULT")) { try list.set("DEFAULT", unquoted: value) }
    }

    @Test(arguments: ["name", "NA ME", "", "NAME=", "A,B"])
    func attributeNamesMustBeUppercaseLettersDigitsAndDashes(name: String) {
        var list = AttributeList()
        #expect(throws: PlaylistError.invalidAttribute(name: name)) { try list.set(name, unquoted: "1") }
    }

    @Test(arguments: [
        (#"A=1,B="x"#, AttributeList.Problem.unterminatedQuote),
        ("A=1,B", .missingEquals(element: 1)),
        ("=1", .emptyName(element: 0)),
        (#"A="x"y"#, .textAfterQuote(element: 0)),
        ("A=1,A=2", .duplicateName("A")),
    ])
    func malformedListsAreReportedAndKeptVerbatim(text: String, problem: AttributeList.Problem) {
        let list = AttributeList(text)
        #expect(list.problem == problem)
        #expect(list.text == text)
    }

    @Test func appendingToAnUnterminatedQuoteIsRefused() {
        var list = AttributeList(#"A="open"#)
        #expect(throws: PlaylistError.malformedAttributeList(line: 0)) { try list.set("B", unquoted: "1") }
        #expect(list.text == #"A="open"#)
    }

    @Test func aCombiningMarkAfterTheOpeningQuoteStaysInTheValue() {
        #expect(AttributeList("NAME=\"\u{301}e\"").value("NAME") == "\u{301}e")
    }

    @Test func theFirstOfDuplicateNamesIsTheOneRead() {
        #expect(AttributeList("A=1,A=2").value("A") == "1")
    }
}
