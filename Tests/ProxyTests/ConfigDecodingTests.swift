import Foundation
import HLS
import Proxy
import TestSupport
import Testing

@Suite struct ConfigDecodingTests {
    private static let validPath = Fixtures.directory.appendingPathComponent("config/valid.json").path
    private static let environment = ["AZURE_TOKEN": "s3cret", "SUBS_TOKEN": "t0k"]

    @Test func theFullExampleDecodesEveryField() throws {
        let config = try ProxyConfig.load(contentsOf: Self.validPath, environment: Self.environment)
        #expect(config.listen == ProxyConfig.Listen(host: "0.0.0.0", port: 9090))
        #expect(config.logLevel == .debug)

        #expect(config.mounts.map(\.name) == ["azure", "sample"])
        let azure = try #require(config.mounts.first)
        #expect(azure.origin == .http(baseURL: "https://example.streaming.media.azure.net"))
        #expect(azure.segments == .proxy)
        #expect(
            azure.injectHeaders == [
                Mount.Header(name: "Authorization", value: "Bearer s3cret"),
                Mount.Header(name: "X-Client", value: "hls-subtitle-proxy"),
            ])
        #expect(azure.forwardHeaders == ["Cookie", "X-Request-Id"])
        let sample = try #require(config.mounts.last)
        // "../vod-ts" is relative to the config file's folder, Tests/Fixtures/config.
        #expect(sample.origin == .directory(path: ConfigTestSupport.vodDirectory))
        #expect(sample.segments == .proxy)

        #expect(config.embedded.allowHosts.map(\.pattern) == ["*.streaming.media.azure.net", "cdn.example.com"])

        #expect(config.subtitleSets.map(\.name) == ["sample", "azure"])
        let set = try #require(config.subtitleSets.first)
        #expect(set.masters.map(\.pattern) == ["/sample/master.m3u8"])
        #expect(set.groupID == "extra-subs")
        #expect(set.tracks.map(\.id) == ["en", "es-sdh", "en-2"])

        let english = try #require(set.tracks.first)
        #expect(english.track == SubtitleTrack(name: "English", language: "en", isDefault: true, autoselect: true))
        #expect(english.source == "/subs/en.vtt")
        #expect(english.format == nil)
        #expect(english.offset == -1.5)
        #expect(english.mode == .single)
        #expect(english.segmentDuration == 6)
        #expect(english.mpegts == nil)

        let spanish = set.tracks[1]
        #expect(
            spanish.track
                == SubtitleTrack(
                    name: "Español (SDH)", language: "es-419", assocLanguage: "es",
                    characteristics: [
                        "public.accessibility.transcribes-spoken-dialog", "public.accessibility.describes-music-and-sound",
                    ]))
        #expect(spanish.source == "https://subs.example.com/movie/es.srt?token=t0k")
        #expect(spanish.format == .srt)
        #expect(spanish.mode == .segmented)
        #expect(spanish.segmentDuration == 4)
        #expect(spanish.mpegts == 126000)
        #expect(set.tracks[2].track.forced)

        #expect(config.subtitleSets.last?.masters == SubtitleSet.defaultMasters)
        #expect(config.subtitleSets.last?.groupID == "subs")

        #expect(config.timeouts == ProxyConfig.Timeouts(connect: 2, originTotal: 20, header: 5, idle: 30, shutdownGrace: 3.5))
        #expect(
            config.limits
                == ProxyConfig.Limits(
                    maxPlaylistBytes: 1_048_576, maxSubtitleBytes: 2_097_152, maxProxyBodyBytes: 3_145_728, maxConnections: 500))
        #expect(config.cache == ProxyConfig.CacheSettings(masterTTL: 1, subtitleTTL: 60, maxBytes: 1_000_000))
        #expect(config.cors.allowOrigins == ["https://player.example.com", "http://localhost:3000"])
    }

    @Test func anEmptyObjectGivesTheDocumentedDefaults() throws {
        let config = try ConfigTestSupport.decode("{}")
        #expect(config.listen.host == "127.0.0.1")
        #expect(config.listen.port == 8080)
        #expect(config.mounts.isEmpty)
        #expect(config.embedded.allowHosts.isEmpty)
        #expect(!config.embedded.allows("example.com"))
        #expect(config.subtitleSets.isEmpty)
        #expect(config.timeouts == ProxyConfig.Timeouts(connect: 5, originTotal: 15, header: 10, idle: 60, shutdownGrace: 10))
        #expect(config.limits.maxPlaylistBytes == 4 * 1024 * 1024)
        #expect(config.limits.maxSubtitleBytes == 32 * 1024 * 1024)
        #expect(config.limits.maxProxyBodyBytes == 256 * 1024 * 1024)
        #expect(config.limits.maxConnections == 10_000)
        #expect(config.cache == ProxyConfig.CacheSettings(masterTTL: 2, subtitleTTL: 300, maxBytes: 64 * 1024 * 1024))
        #expect(config.cors.allowOrigins == ["*"])
        #expect(config.logLevel == nil)
    }

    @Test func omittedTrackFieldsTakeTheirDefaults() throws {
        let config = try ConfigTestSupport.decode(
            ConfigTestSupport.setJSON(tracks: #"{"name": "English", "language": "en", "source": "en.vtt"}"#))
        let set = try #require(config.subtitleSets.first)
        #expect(set.masters.map(\.pattern) == ["*.m3u8", "*(format=m3u8-aapl)"])
        #expect(set.groupID == "subs")
        let track = try #require(set.tracks.first)
        #expect(track.id == "en")
        #expect(track.track == SubtitleTrack(name: "English", language: "en"))
        #expect(track.format == nil)
        #expect(track.offset == 0)
        #expect(track.mode == .segmented)
        #expect(track.segmentDuration == 6)
        #expect(track.mpegts == nil)
    }

    @Test func aDefaultTrackIsAutoselectUnlessTheFileSaysOtherwise() throws {
        let config = try ConfigTestSupport.decode(
            ConfigTestSupport.setJSON(tracks: #"{"name": "English", "language": "en", "default": true, "source": "en.vtt"}"#))
        #expect(config.subtitleSets.first?.tracks.first?.track.autoselect == true)
    }

    @Test func anHTTPMountRedirectsSegmentsByDefault() throws {
        let config = try ConfigTestSupport.decode(#"{"mounts": {"cdn": {"origin": "HTTP://CDN.example.com:8080/vod///"}}}"#)
        #expect(config.mounts.first?.origin == .http(baseURL: "http://cdn.example.com:8080/vod"))
        #expect(config.mounts.first?.segments == .redirect)
    }

    @Test func aFileURLOriginIsADirectory() throws {
        let url = URL(fileURLWithPath: ConfigTestSupport.vodDirectory).absoluteString
        let config = try ConfigTestSupport.decode(#"{"mounts": {"vod": {"origin": "\#(url)"}}}"#)
        #expect(config.mounts.first?.origin == .directory(path: ConfigTestSupport.vodDirectory))
    }

    @Test func aDirectoryPathIsStandardized() throws {
        let messy = ConfigTestSupport.vodDirectory + "/./v0/..//"
        let config = try ConfigTestSupport.decode(#"{"mounts": {"vod": {"origin": "\#(messy)"}}}"#)
        #expect(config.mounts.first?.origin == .directory(path: ConfigTestSupport.vodDirectory))
    }

    @Test func environmentVariablesExpandInAnyString() throws {
        let json = #"""
            {"listen": {"host": "${HOST}", "port": "${PORT}"},
             "mounts": {"cdn": {"origin": "https://${ORIGIN_HOST}/base", "inject_headers": {"X-Key": "k=${KEY}; $${KEY}; $5"}}}}
            """#
        let config = try ConfigTestSupport.decode(
            json, environment: ["HOST": "::", "PORT": "9000", "ORIGIN_HOST": "origin.example.com", "KEY": "abc"])
        #expect(config.listen == ProxyConfig.Listen(host: "::", port: 9000))
        #expect(config.mounts.first?.origin == .http(baseURL: "https://origin.example.com/base"))
        // `$${` is a literal `${`; a lone `$` stays as written.
        #expect(config.mounts.first?.injectHeaders == [Mount.Header(name: "X-Key", value: "k=abc; ${KEY}; $5")])
    }

    @Test func anUnsetVariableNamesTheFieldAndTheVariable() {
        let json = #"{"mounts": {"cdn": {"origin": "https://example.com", "inject_headers": {"Authorization": "Bearer ${TOKEN}"}}}}"#
        #expect(
            ConfigTestSupport.problems(json, environment: ["OTHER": "x"])
                == ["mounts.cdn.inject_headers.Authorization: environment variable TOKEN is not set"])
    }

    @Test func malformedReferencesAreReported() {
        #expect(ConfigTestSupport.problems(#"{"listen": {"host": "${HOST"}}"#) == [
            "listen.host: unterminated ${ (write $${ for a literal ${)"
        ])
        #expect(ConfigTestSupport.problems(#"{"listen": {"host": "${1X}"}}"#) == [
            "listen.host: ${1X} is not a valid environment variable name"
        ])
    }

    @Test func aLiteralStringIsNotANumber() {
        #expect(ConfigTestSupport.problems(#"{"listen": {"port": "80"}}"#) == [#"listen.port: expected an integer, got "80""#])
        #expect(ConfigTestSupport.problems(#"{"listen": {"port": 80.5}}"#) == ["listen.port: expected an integer, got 80.5"])
        #expect(
            ConfigTestSupport.problems(#"{"listen": {"port": "${P}"}}"#, environment: ["P": "http"])
                == [#"listen.port: expected an integer, got "http" (after expansion)"#])
    }

    @Test func loadNamesAFileThatCannotBeRead() throws {
        let missing = Fixtures.directory.appendingPathComponent("config/does-not-exist.json").path
        let error = try #require(throws: ConfigError.self) { try ProxyConfig.load(contentsOf: missing, environment: [:]) }
        #expect(error.problems == ["\(missing): no such file"])
        let directory = Fixtures.directory.path
        let notAFile = try #require(throws: ConfigError.self) { try ProxyConfig.load(contentsOf: directory, environment: [:]) }
        #expect(notAFile.problems == ["\(directory): is a directory, not a config file"])
    }

    @Test func invalidJSONIsOneProblem() throws {
        let error = try #require(throws: ConfigError.self) { try ConfigTestSupport.decode("{\n  \"listen\": }") }
        #expect(error.problems.count == 1)
        #expect(error.problems.first?.hasPrefix("(file): not valid JSON") == true)
        // The '}' that ends parsing is on line 2, column 13.
        #expect(error.problems.first?.hasSuffix("(line 2, column 13)") == true)
    }

    @Test func aDocumentThatIsNotAnObjectIsRefused() {
        #expect(ConfigTestSupport.problems("[]") == ["(root): expected a JSON object, got an array"])
    }

    @Test func everyProblemInAFileIsReportedAtOnce() throws {
        let path = Fixtures.directory.appendingPathComponent("config/invalid-many.json").path
        let error = try #require(throws: ConfigError.self) { try ProxyConfig.load(contentsOf: path, environment: [:]) }
        #expect(
            error.problems == [
                "listen.port: port 70000 is outside 0...65535",
                #"mounts.metrics: mount name "metrics" is reserved for the proxy's own paths"#,
                // Unknown keys of an object are reported before its fields are read.
                "mounts.vod.segmets: unknown key (expected one of forward_headers, inject_headers, origin, segments)",
                #"mounts.vod.origin: "ftp://example.com" is neither an http(s) URL nor a directory"#,
                #"subtitles[0].tracks[0].language: language "e n" is not an RFC 5646 tag"#,
                "timeouts.connect_seconds: must be greater than 0, got 0",
            ])
        #expect(error.description.hasPrefix("invalid configuration (6 problems):\n  listen.port:"))
    }
}
