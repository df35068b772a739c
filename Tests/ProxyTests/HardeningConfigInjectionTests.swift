import Foundation
import Testing
@testable import Proxy

/// Config values end up in request headers and playlist lines; CR, LF (and other controls) arriving
/// through `${ENV}` must be refused at load, naming the field.
@Suite struct HardeningConfigInjectionTests {
    static func decode(_ json: String, _ environment: [String: String]) throws -> ProxyConfig {
        try ProxyConfig.decode(Array(json.utf8), environment: environment)
    }

    static let headerConfig = #"{ "mounts": { "o": { "origin": "http://127.0.0.1:9", "inject_headers": { "X-Token": "${EVIL}" } } } }"#
    static let trackConfig = """
        { "mounts": { "o": { "origin": "http://127.0.0.1:9" } },
          "subtitles": [ { "name": "s", "masters": ["/o/*"],
            "tracks": [ { "id": "en", "name": "${EVIL}", "language": "en", "source": "/en.vtt" } ] } ] }
        """
    static let originConfig = #"{ "mounts": { "o": { "origin": "${EVIL}" } } }"#

    @Test(arguments: ["a\r\nX-Evil: 1", "a\nX-Evil: 1", "a\rb", "a\u{0}b"])
    func anInjectedHeaderValueWithALineBreakIsRefused(value: String) {
        #expect(throws: ConfigError.self) { try Self.decode(Self.headerConfig, ["EVIL": value]) }
    }

    @Test(arguments: ["English\n#EXT-X-ENDLIST", "English\r\n#EXT-X-MEDIA:TYPE=SUBTITLES", "En\"glish"])
    func aTrackNameThatWouldBreakThePlaylistIsRefused(value: String) {
        #expect(throws: ConfigError.self) { try Self.decode(Self.trackConfig, ["EVIL": value]) }
    }

    @Test func anOriginURLWithALineBreakIsRefused() {
        #expect(throws: ConfigError.self) { try Self.decode(Self.originConfig, ["EVIL": "http://a.example/\r\nHost: b"]) }
    }

    @Test func theSameConfigsLoadWithPlainValues() throws {
        let headers = try Self.decode(Self.headerConfig, ["EVIL": "token-123"])
        #expect(headers.mounts.first?.injectHeaders.first?.value == "token-123")
        #expect(try Self.decode(Self.trackConfig, ["EVIL": "English"]).subtitleSets.first?.tracks.first?.track.name == "English")
    }
}
