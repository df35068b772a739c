import Foundation
@testable import Proxy
import TestSupport
import Testing

/// TTML (IMSC1 and DFXP) and WebVTT-in-MP4 sources served through the proxy as players fetch them:
/// master, subtitle playlist, WebVTT file.
@Suite struct SubtitleFormatRouteTests {
    static let config = """
        {
          "mounts": { "origin": { "origin": "ORIGIN" } },
          "subtitles": [
            {
              "name": "formats",
              "masters": ["/origin/vod-ts/master.m3u8"],
              "tracks": [
                { "id": "de", "name": "Deutsch", "language": "de", "source": "/subtitles/imsc1-ebu-tt-d.ttml", "mode": "single" },
                { "id": "nl", "name": "Nederlands", "language": "nl", "source": "/subtitles/netflix-dfxp.dfxp", "mode": "single" },
                { "id": "pt", "name": "Português", "language": "pt", "source": "/subtitles/dfxp-2006-04.xml", "mode": "single" },
                { "id": "it", "name": "Italiano", "language": "it", "source": "/subtitles/frames-and-offsets.ttml",
                  "format": "ttml", "mode": "single" },
                { "id": "en", "name": "English", "language": "en", "source": "/subtitles/mp4-with-wvtt.mp4", "mode": "single" }
              ]
            }
          ]
        }
        """

    /// The cues of a WebVTT file: everything after the header block, without the blank lines that end it.
    static func cueText(_ webVTT: String) -> String {
        guard let end = webVTT.range(of: "\n\n") else { return "" }
        var cues = Substring(webVTT[end.upperBound...])
        while cues.hasSuffix("\n") { cues = cues.dropLast() }
        return String(cues)
    }

    @Test(arguments: [
        ("de", "golden/ttml/imsc1-ebu-tt-d.ttml.vtt"),
        ("nl", "golden/ttml/netflix-dfxp.dfxp.vtt"),
        ("pt", "golden/ttml/dfxp-2006-04.xml.vtt"),
        ("it", "golden/ttml/frames-and-offsets.ttml.vtt"),
        ("en", "subtitles/mp4-with-wvtt.vtt"),
    ])
    func aTTMLOrWVTTSourceIsServedAsItsWebVTTWithTheVideoTimestampMap(language: String, expected: String) async throws {
        try await withProxy(Self.config) { proxy in
            let uri = try await SubtitleRouteTests.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: language)
            let playlist = try await proxy.get(uri)
            #expect(playlist.status == 200)
            #expect(playlist.text.split(separator: "\n").filter { !$0.hasPrefix("#") } == ["0.vtt"])
            let file = try await proxy.get(SubtitleRouteTests.sibling(uri, "0.vtt"))
            #expect(file.status == 200)
            #expect(file.header("Content-Type") == "text/vtt; charset=utf-8")
            #expect(file.text.contains("X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000"))
            let golden = try String(contentsOf: Fixtures.url(expected), encoding: .utf8)
            let served = Self.cueText(file.text)
            #expect(!served.isEmpty)
            #expect(served == Self.cueText(golden))
            #expect(!proxy.logLines.contains { $0.contains("subtitle source unusable") })
        }
    }

    @Test func aSourceWhoseURLNamesNoFormatIsReadAsTTMLWhenItsBytesAreTTML() throws {
        let ttml = try [UInt8](Data(contentsOf: Fixtures.url("subtitles/netflix-dfxp.dfxp")))
        #expect(SubtitleCueLoader.sourceFormat(url: "https://subs.example/api/subtitles?id=7", body: ttml) == .ttml)
        let srt = try [UInt8](Data(contentsOf: Fixtures.url("subtitles/es.srt")))
        #expect(SubtitleCueLoader.sourceFormat(url: "https://subs.example/api/subtitles?id=7", body: srt) == .srt)
        #expect(SubtitleCueLoader.sourceFormat(url: "https://subs.example/de.dfxp", body: []) == .ttml)
    }

    @Test func aFragmentedMP4SourceIsServedWithTheCuesOfItsFragments() async throws {
        let config = Self.config.replacingOccurrences(of: "/subtitles/mp4-with-wvtt.mp4", with: "/subtitles/mp4-fragmented-mov_text.mp4")
        try await withProxy(config) { proxy in
            let uri = try await SubtitleRouteTests.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: "en")
            let file = try await proxy.get(SubtitleRouteTests.sibling(uri, "0.vtt"))
            #expect(file.status == 200)
            #expect(SubtitleRouteTests.timingLines(file.text).count == 4)
            #expect(file.text.contains("Straight after, with --&gt; inside"))
            #expect(!proxy.logLines.contains { $0.contains("subtitle source unusable") })
        }
    }

    @Test func aBrokenTTMLSourceFallsBackToAnEmptyTrackWithItsReason() async throws {
        let config = Self.config.replacingOccurrences(of: "/subtitles/imsc1-ebu-tt-d.ttml", with: "/subtitles/es.srt\", \"format\": \"ttml")
        try await withProxy(config) { proxy in
            let uri = try await SubtitleRouteTests.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: "de")
            let file = try await proxy.get(SubtitleRouteTests.sibling(uri, "0.vtt"))
            #expect(file.status == 200)
            #expect(SubtitleRouteTests.timingLines(file.text).isEmpty)
            #expect(proxy.logLines.contains { $0.contains("subtitle source unusable") && $0.contains("\"reason\":\"broken\"") && $0.contains("malformed") })
        }
    }
}
