import Foundation
@testable import Proxy
import Testing

/// `tracks_url` captures: each one must be defined by every `masters` pattern of its set, as for a
/// track's templated source, so the backend URL is filled in whole whichever pattern claims a request.
@Suite struct CatalogBackendConfigTests {
    private static func set(_ fields: String) -> String {
        #"{"subtitles": [{"name": "catalog", \#(fields)}]}"#
    }

    @Test(arguments: [
        (#""masters": ["/a/{asset}/m.m3u8", "/b/*/m.m3u8"], "tracks_url": "http://backend/api/{asset}/subtitles""#,
         #"subtitles[0].tracks_url: uses {asset}, which masters[1] "/b/*/m.m3u8" does not define"#),
        (#""tracks_url": "http://backend/api/{asset}""#,
         #"subtitles[0].tracks_url: uses {asset}, which the default masters pattern "*.m3u8" does not define"#),
        (#""masters": ["/a/{asset}/m.m3u8"], "tracks_url": "http://backend/api/{asset}?lang={lang}""#,
         #"subtitles[0].tracks_url: uses {lang}, which masters[0] "/a/{asset}/m.m3u8" does not define"#),
    ])
    func aCaptureTheTracksURLUsesButAPatternDoesNotDefineIsAnErrorByFieldPath(fields: String, expected: String) {
        #expect(ConfigTestSupport.problems(Self.set(fields)) == [expected])
    }

    @Test func checkConfigExplainsAnUndefinedTracksURLCaptureByItsField() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tracks-url-\(UUID().uuidString).json").path
        let json = Self.set(#""masters": ["/vod/*/master.m3u8"], "tracks_url": "http://backend/api/{asset}/subtitles""#)
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await RunningProcess.run(["--check-config", "--config", path])
        #expect(result.status == 1)
        #expect(result.out.contains(#"subtitles[0].tracks_url: uses {asset}, which masters[0] "/vod/*/master.m3u8" does not define"#))
    }

    @Test func aCaptureEveryPatternDefinesIsAccepted() throws {
        let json = Self.set(#""masters": ["/a/{asset}/m.m3u8", "/b/{asset}/{rest}.m3u8"], "tracks_url": "http://backend/api/{asset}""#)
        let set = try #require(try ConfigTestSupport.decode(json).subtitleSets.first)
        #expect(set.tracksURL == "http://backend/api/{asset}")
    }
}
