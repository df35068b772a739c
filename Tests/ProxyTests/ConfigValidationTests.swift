import Proxy
import Testing

/// One failing case per validation rule, each asserting the field path the problem is reported under.
@Suite struct ConfigValidationTests {
    private static func problems(_ json: String, environment: [String: String] = [:]) -> [String] {
        ConfigTestSupport.problems(json, environment: environment)
    }

    private static func mountJSON(_ mount: String) -> String { #"{"mounts": {"m": \#(mount)}}"# }

    private static let track = #""name": "English", "language": "en", "source": "en.vtt""#

    @Test(arguments: [
        (#"{"listen": {"port": 65536}}"#, "listen.port: port 65536 is outside 0...65535"),
        (#"{"listen": {"port": -1}}"#, "listen.port: port -1 is outside 0...65535"),
        (#"{"listen": {"host": ""}}"#, #"listen.host: "" is not a host name or address"#),
        (#"{"listen": {"host": 1}}"#, "listen.host: expected a string, got 1"),
        (#"{"log_level": "verbose"}"#, #"log_level: expected one of debug, info, warn, error, got "verbose""#),
        (#"{"listen": {"hots": "x"}}"#, "listen.hots: unknown key (expected one of host, port, threads)"),
        (#"{"listen": {"threads": 0}}"#, "listen.threads: threads 0 is outside 1...64"),
        (#"{"listen": {"threads": 65}}"#, "listen.threads: threads 65 is outside 1...64"),
        (#"{"listen": {"threads": "2"}}"#, #"listen.threads: expected an integer, got "2""#),
        (#"{"listne": {}}"#, "listne: unknown key (expected one of access_log, cache, cors, embedded, limits, listen, log_level, mounts, origin_ca_file, signing, subtitles, timeouts)"),
        (#"{"listen": []}"#, "listen: expected an object, got an array"),
    ])
    func listenAndTopLevelProblemsNameTheirField(json: String, expected: String) {
        #expect(Self.problems(json) == [expected])
    }

    @Test(arguments: ["healthz", "readyz", "metrics", "http", "https", "_hls-proxy", "HTTPS"])
    func reservedMountNamesAreRefused(name: String) {
        let json = #"{"mounts": {"\#(name)": {"origin": "https://example.com"}}}"#
        #expect(Self.problems(json) == [#"mounts.\#(name): mount name "\#(name)" is reserved for the proxy's own paths"#])
    }

    @Test func mountNamesMustBeURLSafe() {
        let json = #"{"mounts": {"a b": {"origin": "https://example.com"}, "a.b": {"origin": "https://example.com"}}}"#
        #expect(
            Self.problems(json) == [
                #"mounts["a b"]: mount name "a b" must be letters, digits, '-' and '_'"#,
                #"mounts["a.b"]: mount name "a.b" must be letters, digits, '-' and '_'"#,
            ])
    }

    @Test(arguments: [
        (#"{}"#, "mounts.m.origin: is required"),
        (#"{"origin": "ftp://example.com"}"#, #"mounts.m.origin: "ftp://example.com" is neither an http(s) URL nor a directory"#),
        (#"{"origin": "https://"}"#, #"mounts.m.origin: "https://" has no host"#),
        (#"{"origin": "https://user:pw@example.com"}"#, #"mounts.m.origin: "https://user:pw@example.com" must not carry credentials; use inject_headers"#),
        (#"{"origin": "https://example.com/a?b=c"}"#, #"mounts.m.origin: "https://example.com/a?b=c" must not have a query or fragment"#),
        (#"{"origin": "https://example.com:99999"}"#, #"mounts.m.origin: "https://example.com:99999" has an invalid port "99999""#),
        (#"{"origin": "https://exa mple.com"}"#, #"mounts.m.origin: "https://exa mple.com" contains spaces or control characters"#),
        (#"{"origin": "/no/such/directory"}"#, #"mounts.m.origin: directory "/no/such/directory" does not exist"#),
        (#"{"origin": "file://server/share"}"#, #"mounts.m.origin: "file://server/share" is not a local file: URL (file:///absolute/path)"#),
        (#"{"origin": "https://example.com", "segments": "redir"}"#, #"mounts.m.segments: expected one of redirect, proxy, got "redir""#),
        (#"{"origin": "https://example.com", "segments": true}"#, "mounts.m.segments: expected one of redirect, proxy, got true"),
        (#"{"origin": "https://example.com", "inject_headers": {"Bad Header": "x"}}"#, #"mounts.m.inject_headers["Bad Header"]: header name "Bad Header" is not an RFC 9110 token"#),
        (#"{"origin": "https://example.com", "inject_headers": {"X-A": "a\u0001b"}}"#, "mounts.m.inject_headers.X-A: header value contains control characters"),
        (#"{"origin": "https://example.com", "inject_headers": {"X-A": "a\r\nX-Evil: 1"}}"#, "mounts.m.inject_headers.X-A: contains a line break or NUL character, which no config value may carry"),
        (#"{"origin": "https://example.com", "inject_headers": {"Transfer-Encoding": "chunked"}}"#, "mounts.m.inject_headers.Transfer-Encoding: header Transfer-Encoding is managed by the proxy per connection and cannot be set here"),
        (#"{"origin": "https://example.com", "forward_headers": ["Cookie", "cookie"]}"#, "mounts.m.forward_headers[1]: header cookie is listed twice (header names are case-insensitive)"),
        (#"{"origin": "https://example.com", "forward_headers": ["X:Y"]}"#, #"mounts.m.forward_headers[0]: header name "X:Y" is not an RFC 9110 token"#),
        (#"{"origin": "https://example.com", "forward_headers": ["Host"]}"#, "mounts.m.forward_headers[0]: header Host is managed by the proxy per connection and cannot be set here"),
        (#"{"origin": "https://example.com", "forward_headers": "Cookie"}"#, #"mounts.m.forward_headers: expected an array, got "Cookie""#),
    ])
    func mountProblemsNameTheirField(mount: String, expected: String) {
        #expect(Self.problems(Self.mountJSON(mount)) == [expected])
    }

    @Test func aDirectoryOriginCannotBeRedirectedTo() {
        let mount = #"{"origin": "\#(ConfigTestSupport.vodDirectory)", "segments": "redirect"}"#
        #expect(
            Self.problems(Self.mountJSON(mount)) == [
                #"mounts.m.segments: a directory origin cannot be redirected to; use "proxy" or leave it out"#
            ])
    }

    @Test func aLineBreakFromTheEnvironmentCannotInjectAHeader() {
        let mount = #"{"origin": "https://example.com", "inject_headers": {"Authorization": "Bearer ${TOKEN}"}}"#
        let problems = Self.problems(Self.mountJSON(mount), environment: ["TOKEN": "abc\r\nX-Injected: 1"])
        #expect(problems == ["mounts.m.inject_headers.Authorization: contains a line break or NUL character, which no config value may carry"])
        // The value may be a secret: it is never echoed.
        #expect(!problems.joined().contains("abc"))
    }

    @Test func noStringAnywhereMayCarryNUL() {
        #expect(Self.problems(#"{"listen": {"host": "a\u0000b"}}"#) == [
            "listen.host: contains a line break or NUL character, which no config value may carry"
        ])
    }

    @Test(arguments: [
        ("*", #"embedded.allow_hosts[0]: "*" would let clients reach any host; list the hosts or *.domain patterns"#),
        ("example.com:443", #"embedded.allow_hosts[0]: "example.com:443" is not a host name, *.domain pattern or IP address (no port)"#),
        ("a.*.com", #"embedded.allow_hosts[0]: "a.*.com" is not a host name, *.domain pattern or IP address (no port)"#),
        ("*example.com", #"embedded.allow_hosts[0]: "*example.com" is not a host name, *.domain pattern or IP address (no port)"#),
        ("", #"embedded.allow_hosts[0]: "" is not a host name, *.domain pattern or IP address (no port)"#),
    ])
    func malformedHostPatternsAreRefused(pattern: String, expected: String) {
        #expect(Self.problems(#"{"embedded": {"allow_hosts": ["\#(pattern)"]}}"#) == [expected])
    }

    @Test(arguments: [
        ("connect_seconds", "0", "timeouts.connect_seconds: must be greater than 0, got 0"),
        ("origin_seconds", "-1", "timeouts.origin_seconds: must be greater than 0, got -1"),
        ("header_seconds", "0", "timeouts.header_seconds: must be greater than 0, got 0"),
        ("idle_seconds", "\"x\"", #"timeouts.idle_seconds: expected a number, got "x""#),
        ("shutdown_seconds", "0", "timeouts.shutdown_seconds: must be greater than 0, got 0"),
    ])
    func timeoutsMustBePositive(key: String, value: String, expected: String) {
        #expect(Self.problems(#"{"timeouts": {"\#(key)": \#(value)}}"#) == [expected])
    }

    @Test(arguments: ["max_playlist_bytes", "max_subtitle_bytes", "max_proxy_body_bytes", "max_connections"])
    func limitsMustBePositive(key: String) {
        #expect(Self.problems(#"{"limits": {"\#(key)": 0}}"#) == ["limits.\(key): must be greater than 0, got 0"])
    }

    @Test func cacheSettingsMayBeZeroButNotNegative() {
        #expect(Self.problems(#"{"cache": {"master_ttl_seconds": 0, "max_bytes": 0}}"#) == [])
        #expect(
            Self.problems(#"{"cache": {"subtitle_ttl_seconds": -5, "max_bytes": -1}}"#) == [
                "cache.subtitle_ttl_seconds: must be 0 or more, got -5", "cache.max_bytes: must be 0 or more, got -1",
            ])
    }

    @Test(arguments: [
        ("https://player.example.com/", #"cors.allow_origins[0]: "https://player.example.com/" is neither "*" nor http(s)://host[:port]"#),
        ("player.example.com", #"cors.allow_origins[0]: "player.example.com" is neither "*" nor http(s)://host[:port]"#),
        ("null", #"cors.allow_origins[0]: "null" is neither "*" nor http(s)://host[:port]"#),
    ])
    func corsOriginsAreStarOrSerializedOrigins(origin: String, expected: String) {
        #expect(Self.problems(#"{"cors": {"allow_origins": ["*", "http://[::1]:8080", "\#(origin)"]}}"#) == [
            expected.replacingOccurrences(of: "[0]", with: "[2]")
        ])
    }

    @Test(arguments: [
        (#""language": "e n""#, #"subtitles[0].tracks[0].language: language "e n" is not an RFC 5646 tag"#),
        (#""assoc_language": "e n""#, #"subtitles[0].tracks[0].assoc_language: assoc-language "e n" is not an RFC 5646 tag"#),
        (#""name": "Eng\"lish""#, #"subtitles[0].tracks[0].name: name "Eng\"lish" contains a double quote, which a quoted HLS attribute cannot carry"#),
        (#""default": true, "autoselect": false"#, "subtitles[0].tracks[0].autoselect: DEFAULT=YES requires AUTOSELECT=YES"),
        (#""characteristics": ["public.easy-to-read", "easy"]"#, #"subtitles[0].tracks[0].characteristics[1]: characteristic "easy" is neither a known characteristic nor a reverse-DNS name such as com.example.name"#),
        (#""id": "e n""#, #"subtitles[0].tracks[0].id: id "e n" must be letters, digits, '-' and '_'"#),
        (#""offset": "${OFFSET}""#, "subtitles[0].tracks[0].offset: must be a finite number"),
        (#""mode": "segments""#, #"subtitles[0].tracks[0].mode: expected one of single, segmented, got "segments""#),
        (#""format": "sami""#, #"subtitles[0].tracks[0].format: expected one of webvtt, srt, mp4, ttml, got "sami""#),
        (#""segment_duration": 0"#, "subtitles[0].tracks[0].segment_duration: must be greater than 0, got 0"),
        (#""mpegts": 8589934592"#, "subtitles[0].tracks[0].mpegts: 8589934592 is outside the 33-bit MPEG-TS range 0...8589934591"),
        (#""mpegts": -1"#, "subtitles[0].tracks[0].mpegts: -1 is outside the 33-bit MPEG-TS range 0...8589934591"),
        (#""source": "ftp://example.com/en.vtt""#, #"subtitles[0].tracks[0].source: source "ftp://example.com/en.vtt" must be an http(s) URL or a relative reference"#),
        (#""source": "https:///en.vtt""#, #"subtitles[0].tracks[0].source: source "https:///en.vtt" has no host"#),
        (#""source": "my subs.vtt""#, #"subtitles[0].tracks[0].source: source "my subs.vtt" must be a URL without spaces or control characters"#),
        (#""source": "https://example.com/subtitles?id=3""#, #"subtitles[0].tracks[0].format: is required: the extension of "https://example.com/subtitles?id=3" does not tell webvtt, srt, mp4 or ttml"#),
        (#""forced": "yes""#, #"subtitles[0].tracks[0].forced: expected true or false, got "yes""#),
        (#""lang": "en""#, "subtitles[0].tracks[0].lang: unknown key (expected one of assoc_language, autoselect, characteristics, default, forced, format, id, language, mode, mpegts, name, offset, optional, segment_duration, source)"),
    ])
    func trackProblemsNameTheirField(override: String, expected: String) {
        // The override replaces the base field of the same name: JSON objects must not repeat a key.
        let key = String(override.dropFirst().prefix { $0 != "\"" })
        let base = [("name", #""English""#), ("language", #""en""#), ("source", #""en.vtt""#)].filter { $0.0 != key }
        let fields = base.map { #""\#($0.0)": \#($0.1)"# } + [override]
        let json = ConfigTestSupport.setJSON(tracks: "{\(fields.joined(separator: ", "))}")
        #expect(Self.problems(json, environment: ["OFFSET": "inf"]) == [expected])
    }

    @Test func requiredTrackFieldsAreNamed() {
        #expect(
            Self.problems(ConfigTestSupport.setJSON(tracks: "{}")) == [
                "subtitles[0].tracks[0].name: is required", "subtitles[0].tracks[0].language: is required",
                "subtitles[0].tracks[0].source: is required",
            ])
    }

    @Test func groupRulesAreReportedOnTheLaterTrack() {
        let json = ConfigTestSupport.setJSON(tracks: """
            {\(Self.track), "default": true},
            {"name": "English", "language": "en-GB", "source": "gb.vtt", "default": true}
            """)
        #expect(
            Self.problems(json) == [
                #"subtitles[0].tracks[1].name: name "English" is already used by track 0; NAME must be unique in a group"#,
                "subtitles[0].tracks[1].default: track 0 is already DEFAULT=YES; a group has at most one default",
            ])
    }

    @Test func trackIdsAreUniqueInASetAndDefaultIdsAvoidThem() throws {
        let json = ConfigTestSupport.setJSON(tracks: """
            {"id": "main", "name": "A", "language": "en", "source": "a.vtt"},
            {"id": "main", "name": "B", "language": "fr", "source": "b.vtt"}
            """)
        #expect(Self.problems(json) == [#"subtitles[0].tracks[1].id: id "main" is already used in this set"#])

        let defaulted = ConfigTestSupport.setJSON(tracks: """
            {"id": "en", "name": "A", "language": "fr", "source": "a.vtt"},
            {"name": "B", "language": "en", "source": "b.vtt"},
            {"name": "C", "language": "en", "source": "c.vtt"}
            """)
        let config = try ConfigTestSupport.decode(defaulted)
        #expect(config.subtitleSets.first?.tracks.map(\.id) == ["en", "en-2", "en-3"])
    }

    @Test(arguments: [
        (#"{"name": "a b", "tracks": [{\#(track)}]}"#, #"subtitles[0].name: set name "a b" must be letters, digits, '-' and '_'"#),
        (#"{"tracks": [{\#(track)}]}"#, "subtitles[0].name: is required"),
        (#"{"name": "s", "tracks": []}"#, "subtitles[0].tracks: lists no tracks"),
        (#"{"name": "s"}"#, "subtitles[0].tracks: is required: list at least one track (or give the set a tracks_url)"),
        (#"{"name": "s", "masters": [], "tracks": [{\#(track)}]}"#, "subtitles[0].masters: lists no patterns, so the set would never apply"),
        (#"{"name": "s", "masters": [""], "tracks": [{\#(track)}]}"#, "subtitles[0].masters: contains an empty pattern"),
        (#"{"name": "s", "group_id": "a\"b", "tracks": [{\#(track)}]}"#, #"subtitles[0].group_id: group_id "a\"b" must be non-empty and without '"'"#),
        (#"{"name": "s", "wrap_media_playlists": "yes", "tracks": [{\#(track)}]}"#, #"subtitles[0].wrap_media_playlists: expected true or false, got "yes""#),
        (#"{"name": "s", "wrap_bandwidth": 0, "tracks": [{\#(track)}]}"#, "subtitles[0].wrap_bandwidth: wrap_bandwidth 0 must be between 1 and 1000000000000 bits per second"),
        (#"{"name": "s", "wrap_bandwidth": 1.5, "tracks": [{\#(track)}]}"#, "subtitles[0].wrap_bandwidth: expected an integer, got 1.5"),
    ])
    func subtitleSetProblemsNameTheirField(set: String, expected: String) {
        #expect(Self.problems(#"{"subtitles": [\#(set)]}"#) == [expected])
    }

    @Test func setNamesAreUnique() {
        let set = #"{"name": "s", "tracks": [{\#(Self.track)}]}"#
        #expect(Self.problems(#"{"subtitles": [\#(set), \#(set)]}"#) == [#"subtitles[1].name: name "s" is already used by subtitles[0]"#])
    }

    @Test func problemsFromEverySectionAreCollected() {
        let json = #"""
            {"listen": {"port": 1e6},
             "mounts": {"healthz": {"origin": "https://example.com"}, "m": {"origin": "nowhere://x"}},
             "embedded": {"allow_hosts": ["*"]},
             "subtitles": [{"name": "s", "tracks": [{"name": "", "language": "?", "source": "x.vtt"}]}],
             "timeouts": {"idle_seconds": 0}, "limits": {"max_connections": 0}, "cors": {"allow_origins": ["x"]}}
            """#
        let paths = Self.problems(json).map { String($0.prefix { $0 != ":" }) }
        #expect(
            paths == [
                "listen.port", "mounts.healthz", "mounts.m.origin", "embedded.allow_hosts[0]",
                "subtitles[0].tracks[0].name", "subtitles[0].tracks[0].language", "timeouts.idle_seconds",
                "limits.max_connections", "cors.allow_origins[0]",
            ])
    }
}
