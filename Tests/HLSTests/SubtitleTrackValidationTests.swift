import HLS
import Testing

@Suite struct SubtitleTrackValidationTests {
    private static let english = SubtitleTrack(name: "English", language: "en", isDefault: true, autoselect: true)
    private static let french = SubtitleTrack(name: "Français", language: "fr", autoselect: true)

    @Test func aWellFormedGroupHasNoProblems() {
        let tracks = [
            Self.english,
            Self.french,
            SubtitleTrack(name: "English (forced)", language: "en", autoselect: true, forced: true),
            SubtitleTrack(
                name: "English SDH", language: "en", autoselect: true,
                characteristics: ["public.accessibility.transcribes-spoken-dialog", "public.accessibility.describes-music-and-sound"]),
            SubtitleTrack(name: "Commentary", language: "en", assocLanguage: "en-GB", characteristics: ["com.example.commentary"]),
        ]
        #expect(SubtitleTrack.problems(in: tracks) == [])
    }

    @Test(arguments: [
        "en", "EN", "pt-BR", "zh-Hant-TW", "es-419", "x-private", "sr-Latn-RS", "de-CH-1901", "en-US-x-twain",
        "i-klingon", "zh-yue-HK", "sgn-BE-FR", "en-a-bbb-x-c", "de-DE-u-co-phonebk", "art-lojban", "qaa",
    ])
    func wellFormedLanguageTagsAreAccepted(tag: String) {
        #expect(SubtitleTrack.isLanguageTag(tag))
    }

    @Test(arguments: [
        "", "e n", "e", "en-", "-en", "en_US", "123", "en-US-x", "en-a", "en-abcdefghi", "x", "e\"n", "en\n",
        "é", "english-language-tag", "en--US", "i-unknown",
    ])
    func malformedLanguageTagsAreRefused(tag: String) {
        #expect(!SubtitleTrack.isLanguageTag(tag))
    }

    @Test func aLanguageThatIsNotATagIsNamedInTheMessage() {
        let problems = SubtitleTrack.problems(in: [SubtitleTrack(name: "English", language: "e n")])
        #expect(problems == [TrackProblem(trackIndex: 0, field: "language", message: "language \"e n\" is not an RFC 5646 tag")])
        #expect(problems.first?.description == "tracks[0].language: language \"e n\" is not an RFC 5646 tag")
    }

    @Test func anEmptyLanguageIsAProblem() {
        let problems = SubtitleTrack.problems(in: [SubtitleTrack(name: "English", language: "")])
        #expect(problems.map(\.field) == ["language"])
    }

    @Test func aMalformedAssocLanguageIsAProblem() {
        let problems = SubtitleTrack.problems(in: [SubtitleTrack(name: "English", language: "en", assocLanguage: "en US")])
        #expect(problems == [TrackProblem(trackIndex: 0, field: "assocLanguage", message: "assoc-language \"en US\" is not an RFC 5646 tag")])
    }

    @Test func namesMustBePresentAndUnique() {
        let problems = SubtitleTrack.problems(in: [
            SubtitleTrack(name: "", language: "en"),
            SubtitleTrack(name: "Deutsch", language: "de"),
            SubtitleTrack(name: "Deutsch", language: "de-AT"),
        ])
        #expect(problems.map(\.trackIndex) == [0, 2])
        #expect(problems.map(\.field) == ["name", "name"])
        #expect(problems.last?.message.contains("already used by track 1") == true)
    }

    @Test func atMostOneTrackIsDefault() {
        let second = SubtitleTrack(name: "Français", language: "fr", isDefault: true, autoselect: true)
        let problems = SubtitleTrack.problems(in: [Self.english, second])
        #expect(problems == [TrackProblem(trackIndex: 1, field: "isDefault", message: "track 0 is already DEFAULT=YES; a group has at most one default")])
    }

    @Test func aDefaultTrackMustBeAutoselect() {
        let problems = SubtitleTrack.problems(in: [SubtitleTrack(name: "English", language: "en", isDefault: true)])
        #expect(problems == [TrackProblem(trackIndex: 0, field: "autoselect", message: "DEFAULT=YES requires AUTOSELECT=YES")])
    }

    @Test(arguments: [
        (SubtitleTrack(name: "Eng\"lish", language: "en"), "name", "double quote"),
        (SubtitleTrack(name: "Eng\nlish", language: "en"), "name", "line break"),
        (SubtitleTrack(name: "English\r", language: "en"), "name", "line break"),
        (SubtitleTrack(name: "English", language: "en\""), "language", "not an RFC 5646 tag"),
        (SubtitleTrack(name: "English", language: "en", assocLanguage: "en\r\n"), "assocLanguage", "not an RFC 5646 tag"),
        (SubtitleTrack(name: "English", language: "en", characteristics: ["com.example\"x"]), "characteristics[0]", "double quote"),
        (SubtitleTrack(name: "English", language: "en", characteristics: ["com.example.x\n"]), "characteristics[0]", "line break"),
    ])
    func quotesAndLineBreaksNeverReachAQuotedAttribute(track: SubtitleTrack, field: String, phrase: String) throws {
        let problem = try #require(SubtitleTrack.problems(in: [track]).first)
        #expect(problem.field == field)
        #expect(problem.message.contains(phrase))
        // The offending characters are escaped in the message, so it prints on one line.
        #expect(!problem.message.contains("\n") && !problem.message.contains("\r"))
    }

    @Test(arguments: [
        ("public.easy-to-read", true),
        ("public.accessibility.transcribes-spoken-dialog", true),
        ("public.accessibility.describes-music-and-sound", true),
        ("com.example.foo", true),
        ("org.example-site.a1", true),
        ("public.easy-to-read,public.accessibility.transcribes-spoken-dialog", false),
        ("easy-to-read", false),
        ("com..example", false),
        ("com.example.", false),
        ("com.exa mple", false),
        ("", false),
    ])
    func characteristicsAreKnownOrReverseDNS(characteristic: String, valid: Bool) {
        let track = SubtitleTrack(name: "English", language: "en", characteristics: [characteristic])
        let problems = SubtitleTrack.problems(in: [track])
        #expect(problems.isEmpty == valid)
        #expect(problems.allSatisfy { $0.field == "characteristics[0]" })
    }

    @Test func aCommaInsideOneCharacteristicIsExplained() throws {
        let track = SubtitleTrack(name: "English", language: "en", characteristics: ["public.easy-to-read", "a.b,c.d"])
        let problem = try #require(SubtitleTrack.problems(in: [track]).first)
        #expect(problem.field == "characteristics[1]")
        #expect(problem.message == "characteristic \"a.b,c.d\" contains a comma; list each characteristic separately")
    }

    @Test func autoselectTracksMustBeDistinguishable() {
        let twin = SubtitleTrack(name: "English again", language: "EN", autoselect: true)
        let problems = SubtitleTrack.problems(in: [Self.english, Self.french, twin])
        #expect(problems.map(\.trackIndex) == [2])
        #expect(problems.map(\.field) == ["autoselect"])
        #expect(problems.first?.message.contains("as track 0") == true)
    }

    @Test func tracksDifferingOnlyInCharacteristicOrderAreTheSame() {
        let a = SubtitleTrack(name: "A", language: "en", autoselect: true, characteristics: ["a.b", "c.d"])
        let b = SubtitleTrack(name: "B", language: "en", autoselect: true, characteristics: ["c.d", "a.b"])
        #expect(SubtitleTrack.problems(in: [a, b]).map(\.field) == ["autoselect"])
    }

    @Test func tracksWithoutAutoselectMayShareALanguage() {
        let a = SubtitleTrack(name: "A", language: "en")
        let b = SubtitleTrack(name: "B", language: "en")
        #expect(SubtitleTrack.problems(in: [a, b]) == [])
    }

    @Test func everyProblemIsReportedNotJustTheFirst() {
        let bad = SubtitleTrack(name: "", language: "e n", assocLanguage: "?", isDefault: true, characteristics: ["x"])
        let fields = SubtitleTrack.problems(in: [bad]).map(\.field)
        #expect(fields == ["name", "language", "assocLanguage", "autoselect", "characteristics[0]"])
    }
}
