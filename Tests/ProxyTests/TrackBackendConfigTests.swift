@testable import Proxy
import Testing

/// The config keys of tracks from the app's backend: `tracks_url`, `tracks_headers` and `source_hosts`
/// on a subtitle set, `cache.tracks_ttl_seconds` and `limits.max_tracks_response_bytes`.
@Suite struct TrackBackendConfigTests {
    private static func problems(_ json: String, environment: [String: String] = [:]) -> [String] {
        ConfigTestSupport.problems(json, environment: environment)
    }

    private static func set(_ fields: String) -> String {
        #"{"subtitles": [{"name": "catalog", \#(fields)}]}"#
    }

    @Test func aSetWithATracksURLNeedsNoStaticTracks() throws {
        let json = Self.set(#"""
            "masters": ["/vod/{asset}/master.m3u8"], "tracks_url": "http://backend:8080/api/assets/{asset}/subtitles?lang={asset}",
            "tracks_headers": {"X-Token": "${TOKEN}", "Accept-Language": "en"}, "source_hosts": ["subs.example", "*.cdn.example"]
            """#)
        let config = try ConfigTestSupport.decode(json, environment: ["TOKEN": "s3cret"])
        let set = try #require(config.subtitleSets.first)
        #expect(set.tracks.isEmpty)
        // Placeholders stay as written: the template substitution fills them per request.
        #expect(set.tracksURL == "http://backend:8080/api/assets/{asset}/subtitles?lang={asset}")
        #expect(set.tracksHeaders == [Mount.Header(name: "Accept-Language", value: "en"), Mount.Header(name: "X-Token", value: "s3cret")])
        #expect(set.sourceHosts.map(\.pattern) == ["subs.example", "*.cdn.example"])
    }

    @Test func aSetMayHaveStaticTracksBesidesItsTracksURL() throws {
        let json = Self.set(#""tracks_url": "https://backend.example/t", "tracks": [{"name": "English", "language": "en", "source": "en.vtt"}]"#)
        let set = try #require(try ConfigTestSupport.decode(json).subtitleSets.first)
        #expect(set.tracks.map(\.id) == ["en"])
        #expect(set.tracksURL == "https://backend.example/t")
    }

    @Test func withoutATracksURLTheBackendFieldsAreEmptyAndTheNewLimitsHaveTheirDefaults() throws {
        let config = try ConfigTestSupport.decode(ConfigTestSupport.setJSON(tracks: #"{"name": "English", "language": "en", "source": "en.vtt"}"#))
        let set = try #require(config.subtitleSets.first)
        #expect(set.tracksURL == nil)
        #expect(set.tracksHeaders.isEmpty)
        #expect(set.sourceHosts.isEmpty)
        #expect(config.cache.tracksTTL == 60)
        #expect(config.limits.maxTracksResponseBytes == 1 << 20)
        #expect(config.timeouts.tracks == 3)
    }

    @Test func theTracksTTLAndResponseLimitAreRead() throws {
        let config = try ConfigTestSupport.decode(
            #"{"cache": {"tracks_ttl_seconds": 300}, "limits": {"max_tracks_response_bytes": 65536}, "timeouts": {"tracks_seconds": 1.5}}"#)
        #expect(config.timeouts.tracks == 1.5)
        #expect(config.cache.tracksTTL == 300)
        #expect(config.limits.maxTracksResponseBytes == 65536)
    }

    @Test(arguments: [
        (#""tracks_url": "ftp://backend/t""#, #"subtitles[0].tracks_url: "ftp://backend/t" is not an http(s) URL"#),
        (#""tracks_url": "/api/{asset}""#, #"subtitles[0].tracks_url: "/api/{asset}" is not an http(s) URL"#),
        (#""tracks_url": "http://backend/t#x""#, #"subtitles[0].tracks_url: "http://backend/t#x" must not have a fragment"#),
        (#""tracks_url": "http://user:pw@backend/t""#, #"subtitles[0].tracks_url: "http://user:pw@backend/t" must not carry credentials; use tracks_headers"#),
        (#""tracks_url": "http://{tenant}.backend/t""#,
         #"subtitles[0].tracks_url: "http://{tenant}.backend/t" has a placeholder in its host or port, where a request could choose where the proxy connects"#),
        (#""tracks_url": "http://backend/{asset""#, #"subtitles[0].tracks_url: "http://backend/{asset" has a placeholder that is never closed"#),
        (#""tracks_url": "http://backend/{}""#, #"subtitles[0].tracks_url: "http://backend/{}" has an empty placeholder {}"#),
        (#""tracks_url": "http://backend/a}""#, #"subtitles[0].tracks_url: "http://backend/a}" has a '}' that closes no placeholder"#),
        (#""tracks_url": "http://backend/t?q=a b""#, #"subtitles[0].tracks_url: "http://backend/t?q=a b" contains spaces or control characters"#),
        (#""tracks_url": 3"#, "subtitles[0].tracks_url: expected a string, got 3"),
        (#""tracks_url": "http://b/t", "tracks_headers": {"Connection": "close"}"#,
         "subtitles[0].tracks_headers.Connection: header Connection is managed by the proxy per connection and cannot be set here"),
        (#""tracks_url": "http://b/t", "tracks_headers": {"Bad Name": "x"}"#,
         #"subtitles[0].tracks_headers["Bad Name"]: header name "Bad Name" is not an RFC 9110 token"#),
        (#""tracks_url": "http://b/t", "tracks_headers": {"X-Token": "${UNSET_TOKEN}"}"#,
         "subtitles[0].tracks_headers.X-Token: environment variable UNSET_TOKEN is not set"),
        (#""tracks_url": "http://b/t", "tracks_headers": []"#, "subtitles[0].tracks_headers: expected an object, got an array"),
        (#""tracks_url": "http://b/t", "source_hosts": ["*"]"#,
         #"subtitles[0].source_hosts[0]: "*" would let clients reach any host; list the hosts or *.domain patterns"#),
        (#""tracks_url": "http://b/t", "source_hosts": ["subs.example:443"]"#,
         #"subtitles[0].source_hosts[0]: "subs.example:443" is not a host name, *.domain pattern or IP address (no port)"#),
        (#""tracks": [{"name": "E", "language": "en", "source": "e.vtt"}], "source_hosts": ["subs.example"]"#,
         "subtitles[0].source_hosts: applies only to tracks fetched from tracks_url, which this set does not have"),
        (#""tracks": [{"name": "E", "language": "en", "source": "e.vtt"}], "tracks_headers": {"X-Token": "t"}"#,
         "subtitles[0].tracks_headers: applies only to tracks fetched from tracks_url, which this set does not have"),
    ])
    func backendFieldProblemsNameTheirField(fields: String, expected: String) {
        #expect(Self.problems(Self.set(fields)) == [expected])
    }

    @Test func anInvalidTracksURLStillDoesNotDemandStaticTracks() {
        #expect(Self.problems(Self.set(#""tracks_url": "ftp://b/t""#)).count == 1)
    }

    @Test(arguments: [
        (#"{"cache": {"tracks_ttl_seconds": -1}}"#, "cache.tracks_ttl_seconds: must be 0 or more, got -1"),
        (#"{"limits": {"max_tracks_response_bytes": 0}}"#, "limits.max_tracks_response_bytes: must be greater than 0, got 0"),
        (#"{"timeouts": {"tracks_seconds": 0}}"#, "timeouts.tracks_seconds: must be greater than 0, got 0"),
    ])
    func limitProblemsNameTheirField(json: String, expected: String) {
        #expect(Self.problems(json) == [expected])
    }
}
