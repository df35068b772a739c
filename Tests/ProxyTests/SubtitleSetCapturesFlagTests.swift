import HLS
@testable import Proxy
import Testing

/// A set keeps whether its tracks may hold `{capture}`s, so subtitle requests do not look through every
/// track's source and name; the flag must follow every way the tracks can change.
@Suite struct SubtitleSetCapturesFlagTests {
    static func track(_ id: String, source: String = "subs/en.vtt", name: String = "English") -> TrackConfig {
        TrackConfig(id: id, track: SubtitleTrack(name: name, language: "en"), source: source)
    }

    static func looked(_ set: SubtitleSet) -> Bool {
        set.tracks.contains { Template.mayHaveCaptures($0.source) || Template.mayHaveCaptures($0.track.name) }
    }

    @Test func theFlagFollowsEveryChangeToTheTracks() {
        var set = SubtitleSet(name: "s", tracks: [Self.track("en")])
        #expect(!set.tracksMayHaveCaptures)
        set.tracks[0].source = "subs/{id}.vtt"
        #expect(set.tracksMayHaveCaptures)
        set.tracks[0].source = "subs/en.vtt"
        #expect(!set.tracksMayHaveCaptures)
        set.tracks[0].track.name = "English {tier}"
        #expect(set.tracksMayHaveCaptures)
        set.tracks = [Self.track("fr")]
        #expect(!set.tracksMayHaveCaptures)
        set.tracks.append(Self.track("de", source: "x/}"))
        #expect(set.tracksMayHaveCaptures)
        set.tracks.removeLast()
        #expect(!set.tracksMayHaveCaptures)
        #expect(SubtitleSet(name: "t", tracks: [Self.track("a"), Self.track("b", name: "{n}")]).tracksMayHaveCaptures)
    }

    @Test func theFlagIsWhatLookingThroughTheTracksFinds() {
        let sources = ["subs/en.vtt", "{a}.vtt", "x}", "{", "https://cdn.example/{id}/en.vtt", ""]
        let names = ["English", "{tier}", "Fran\u{E7}ais", "}"]
        for source in sources {
            for name in names {
                let set = SubtitleSet(name: "s", tracks: [Self.track("en"), Self.track("x", source: source, name: name)])
                #expect(set.tracksMayHaveCaptures == Self.looked(set), "\(source) \(name)")
            }
        }
    }
}
