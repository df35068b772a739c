@testable import Proxy
import Testing

/// `{name}` captures in masters patterns, template substitution, and their config checks by field path.
@Suite struct CatalogTemplateTests {
    @Test func theAzureExampleCapturesLocatorAndAssetAsTheRequestSpelledThem() throws {
        let pattern = PathPattern("/ams/{locator}/{asset}.ism/manifest(format=m3u8-aapl)")
        #expect(pattern.captureNames == ["locator", "asset"])
        #expect(pattern.matches("/ams/0f1e-22/lecture one.ism/manifest(format=m3u8-aapl)"))
        let captures = try #require(pattern.captures(inRawPath: "/ams/0f1e-22/lecture%20one.ism/manifest%28format=m3u8-aapl%29"))
        #expect(captures["locator"] == "0f1e-22")
        #expect(captures["asset"] == "lecture%20one")
    }

    @Test func aCaptureIsOneSegmentAndNeverEmpty() {
        let pattern = PathPattern("/v/{asset}/master.m3u8")
        #expect(!pattern.matches("/v/a/b/master.m3u8"))
        #expect(!pattern.matches("/v//master.m3u8"))
        #expect(pattern.matches("/v/a/master.m3u8"))
        #expect(pattern.captures(inRawPath: "/v/a%2Fb/master.m3u8") == nil)
    }

    @Test func starsKeepTheirMeaningBesideCaptures() throws {
        let pattern = PathPattern("*/{asset}/master.m3u8")
        let captures = try #require(pattern.captures(inRawPath: "/deep/tree/x1/master.m3u8"))
        #expect(captures["asset"] == "x1")
        #expect(!pattern.matches("/deep/tree/x1/other.m3u8"))
        let relative = PathPattern("{asset}.m3u8")
        #expect(relative.captures(inRawPath: "/a/b/movie.m3u8")?["asset"] == "movie")
    }

    @Test func aPatternWithoutCapturesMatchesAsBefore() {
        let pattern = PathPattern("/ams/*/lecture.ism/manifest(format=m3u8-aapl)")
        #expect(pattern.captureNames.isEmpty)
        #expect(pattern.templateProblem == nil)
        #expect(pattern.matches("/ams/x/y/lecture.ism/manifest(format=m3u8-aapl)"))
        #expect(pattern.captures(inRawPath: "/ams/x/lecture.ism/manifest(format=m3u8-aapl)") == [:])
    }

    @Test func manyCapturesAndStarsAgainstALongPathFinishAndFail() {
        let pattern = PathPattern("/" + String(repeating: "{a}*", count: 1) + String(repeating: "*x", count: 30) + "{b}y")
        #expect(!pattern.matches("/" + String(repeating: "x", count: 4000)))
    }

    @Test func substitutionCopiesValuesAndRefusesAMissingOne() throws {
        let template = try Template(parsing: "https://subs.example/{asset}/{lang}.vtt")
        #expect(template.substituting(["asset": "a%20b", "lang": "en"]) == "https://subs.example/a%20b/en.vtt")
        #expect(template.substituting(["asset": "a"]) == nil)
        #expect(throws: TemplateError.self) { try Template(parsing: "x{asset") }
        #expect(throws: TemplateError.self) { try Template(parsing: "x}y") }
    }

    @Test func aCaptureInAURLsQueryIsPercentEncodedSoItCannotAddParameters() throws {
        let template = try Template(parsing: "https://api.example/{asset}/subtitles?asset={asset}&v=1")
        let values: [String: Substring] = ["asset": "x&admin=true;a+b#c?d%20e~f"]
        // In the path the capture stays as the request spelled it; in the query every sub-delimiter is %XX.
        #expect(template.substitutingURL(values) == "https://api.example/x&admin=true;a+b#c?d%20e~f/subtitles?asset=x%26admin%3Dtrue%3Ba%2Bb%23c%3Fd%20e~f&v=1")
        #expect(template.substitutingURL(["lang": "en"]) == nil)
        #expect(Template.queryEncoded("caf\u{E9}") == "caf%C3%A9")
    }

    @Test func aSourceStartingWithACaptureStaysARelativeReference() {
        #expect(TrackResolver.relativeReferenceKept("https:x/en.vtt", template: "{asset}/en.vtt") == "./https:x/en.vtt")
        #expect(TrackResolver.relativeReferenceKept("movie/en.vtt", template: "{asset}/en.vtt") == "movie/en.vtt")
    }

    private static func set(masters: String?, source: String, name: String = "English") -> String {
        let mastersField = masters.map { #""masters": \#($0), "# } ?? ""
        return #"{"subtitles": [{"name": "s", \#(mastersField)"tracks": [{"name": "\#(name)", "language": "en", "source": "\#(source)"}]}]}"#
    }

    @Test(arguments: [
        (set(masters: #"["/a/{asset}/m.m3u8", "/b/*/m.m3u8"]"#, source: "https://s.example/{asset}.vtt"),
         #"subtitles[0].tracks[0].source: uses {asset}, which masters[1] "/b/*/m.m3u8" does not define"#),
        (set(masters: nil, source: "https://s.example/{asset}.vtt"),
         #"subtitles[0].tracks[0].source: uses {asset}, which the default masters pattern "*.m3u8" does not define"#),
        (set(masters: #"["/a/{asset}/m.m3u8"]"#, source: "en.vtt", name: "English {lang}"),
         #"subtitles[0].tracks[0].name: uses {lang}, which masters[0] "/a/{asset}/m.m3u8" does not define"#),
        (set(masters: #"["/a/{as-set}/m.m3u8"]"#, source: "en.vtt"),
         #"subtitles[0].masters[0]: "{" opens no capture: write captures as {name} (letters, digits and _)"#),
        (set(masters: #"["/a/{asset}/{asset}.m3u8"]"#, source: "en.vtt"),
         "subtitles[0].masters[0]: names a capture twice: each {name} may appear once in a pattern"),
        (set(masters: #"["/a/{host}/m.m3u8"]"#, source: "https://{host}/en.vtt"),
         "subtitles[0].tracks[0].source: a capture may not stand in the source's host: the request path would choose where the proxy connects"),
        (set(masters: #"["/a/{host}/{asset}/m.m3u8"]"#, source: "//{host}/subs/{asset}/en.vtt"),
         "subtitles[0].tracks[0].source: a capture may not stand in the source's host: the request path would choose where the proxy connects"),
        (set(masters: #"["/a/{asset}/m.m3u8"]"#, source: "https://s.example/{asset.vtt"),
         #"subtitles[0].tracks[0].source: "{" opens no capture: write captures as {name} (letters, digits and _)"#),
    ])
    func captureMistakesAreReportedByFieldPath(json: String, expected: String) {
        #expect(ConfigTestSupport.problems(json) == [expected])
    }

    @Test func aSchemeRelativeSourceWithAFixedHostMayTakeCapturesInItsPath() {
        let json = Self.set(masters: #"["/a/{asset}/m.m3u8"]"#, source: "//s.example/subs/{asset}/en.vtt")
        #expect(ConfigTestSupport.problems(json) == [])
    }

    @Test func aCaptureDefinedByEveryPatternIsAccepted() {
        let json = Self.set(masters: #"["/a/{asset}/m.m3u8", "/b/{asset}.ism/manifest(format=m3u8-aapl)"]"#, source: "https://s.example/{asset}.vtt")
        #expect(ConfigTestSupport.problems(json) == [])
    }
}

/// The config keys of optional tracks and the tracks cache, checked by field path.
@Suite struct CatalogConfigTests {
    @Test func tracksTTLDefaultsToSixtySecondsAndIsRead() throws {
        #expect(try ConfigTestSupport.decode("{}").cache.tracksTTL == 60)
        #expect(try ConfigTestSupport.decode(#"{"cache": {"tracks_ttl_seconds": 5}}"#).cache.tracksTTL == 5)
    }

    @Test func aNegativeTracksTTLIsReportedByFieldPath() {
        #expect(ConfigTestSupport.problems(#"{"cache": {"tracks_ttl_seconds": -1}}"#) == ["cache.tracks_ttl_seconds: must be 0 or more, got -1"])
    }

    @Test func optionalIsABooleanDefaultingToFalse() throws {
        let json = ConfigTestSupport.setJSON(tracks: #"{"name": "A", "language": "en", "source": "a.vtt"}, {"name": "B", "language": "de", "source": "b.vtt", "optional": true}"#)
        let tracks = try #require(try ConfigTestSupport.decode(json).subtitleSets.first).tracks
        #expect(tracks.map(\.optional) == [false, true])
        let bad = ConfigTestSupport.setJSON(tracks: #"{"name": "A", "language": "en", "source": "a.vtt", "optional": "yes"}"#)
        let problems = ConfigTestSupport.problems(bad)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("subtitles[0].tracks[0].optional: ") == true)
    }
}

/// Choices read from a query and applied to tracks, without sockets.
@Suite struct PlayerChoicesTests {
    @Test func theOriginQueryLosesOnlyTheChoiceParameters() {
        #expect(PlayerChoices.originQuery("a=1&hls_proxy_subtitles=en,fr&b=2&hls_proxy_default=fr") == "a=1&b=2")
        #expect(PlayerChoices.originQuery("hls_proxy_subtitles=en") == nil)
        #expect(PlayerChoices.originQuery("hls_proxy_other=1") == "hls_proxy_other=1")
        #expect(PlayerChoices.originQuery(nil) == nil)
        #expect(PlayerChoices.originQuery("a=1") == "a=1")
    }

    @Test func valuesArePercentDecodedAndEmptyOnesSayNothing() {
        let choices = PlayerChoices(query: "hls_proxy_subtitles=en%2Cfr&hls_proxy_default=")
        #expect(choices.subtitles == ["en", "fr"])
        #expect(choices.defaultTrack == nil)
        #expect(PlayerChoices(query: "hls_proxy_subtitles=,").isEmpty)
    }
}
