import Proxy
import Testing

/// `subtitles[].closed_captions`: "none" or absent; anything else is refused under its field path.
@Suite struct ClosedCaptionsConfigTests {
    static let track = #""name": "English", "language": "en", "source": "en.vtt""#

    static func set(_ closedCaptions: String) -> String {
        #"{"subtitles": [{"name": "s", "closed_captions": \#(closedCaptions), "tracks": [{\#(track)}]}]}"#
    }

    @Test func noneTurnsTheOptionOn() throws {
        let config = try ConfigTestSupport.decode(Self.set(#""none""#))
        #expect(config.subtitleSets.first?.closedCaptionsNone == true)
    }

    @Test func absentOrNullLeavesMastersAsTheyAre() throws {
        let absent = try ConfigTestSupport.decode(#"{"subtitles": [{"name": "s", "tracks": [{\#(Self.track)}]}]}"#)
        #expect(absent.subtitleSets.first?.closedCaptionsNone == false)
        let null = try ConfigTestSupport.decode(Self.set("null"))
        #expect(null.subtitleSets.first?.closedCaptionsNone == false)
    }

    @Test(arguments: [
        (#""None""#, #"subtitles[0].closed_captions: expected "none" (the only value: CLOSED-CAPTIONS=NONE on variants without the attribute), got "None""#),
        (#""cc1""#, #"subtitles[0].closed_captions: expected "none" (the only value: CLOSED-CAPTIONS=NONE on variants without the attribute), got "cc1""#),
        (#""""#, #"subtitles[0].closed_captions: expected "none" (the only value: CLOSED-CAPTIONS=NONE on variants without the attribute), got """#),
        ("true", "subtitles[0].closed_captions: expected a string, got true"),
        (#"["none"]"#, "subtitles[0].closed_captions: expected a string, got an array"),
    ])
    func anythingButNoneIsAConfigError(value: String, expected: String) {
        #expect(ConfigTestSupport.problems(Self.set(value)) == [expected])
    }
}
