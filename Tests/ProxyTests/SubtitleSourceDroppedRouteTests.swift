import Foundation
import HLS
@testable import Proxy
import TestSupport
import Testing

/// Sources read only in part: TTML elements with an out-of-range clock time (TTML2 §10.3.1) and `wvtt`
/// samples with a malformed box are left out, the rest served, and the proxy says so in one warn line
/// per load of the track, with the reasons.
@Suite struct SubtitleSourceDroppedRouteTests {
    static let config = """
        {
          "mounts": { "origin": { "origin": "ORIGIN" } },
          "subtitles": [
            { "name": "partial", "masters": ["/origin/vod-ts/master.m3u8"],
              "tracks": [
                { "id": "tt", "name": "TTML", "language": "de", "source": "/subtitles/partial.ttml", "mode": "single" },
                { "id": "mp4", "name": "MP4", "language": "en", "source": "/subtitles/partial.mp4", "mode": "single" }
              ] }
          ]
        }
        """

    static func path(_ track: String, _ resource: SubtitleURL.Resource) -> String {
        SubtitleURL(setName: "partial", trackID: track, masterTarget: "/origin/vod-ts/master.m3u8", resource: resource).path
    }

    @Test func aTTMLSourceWithOutOfRangeClockTimesIsServedWithoutThoseCuesAndOneWarning() async throws {
        try await withProxy(Self.config) { proxy in
            let source = """
                <tt xmlns="http://www.w3.org/ns/ttml"><body><div>
                <p begin="00:00:01.000" end="00:00:02.000">kept</p>
                <p begin="00:00:03:30" end="00:00:04.000">frame 30 at 30 fps</p>
                <p begin="00:00:65" end="00:01:10">sixty-five seconds</p>
                </div></body></tt>
                """
            proxy.origin.setFault("/subtitles/partial.ttml", .body(Array(source.utf8), contentType: "application/ttml+xml"))
            let file = try await proxy.get(Self.path("tt", .segment(0)))
            _ = try await proxy.get(Self.path("tt", .segment(0)))
            #expect(file.status == 200)
            #expect(file.text.contains("00:00:01.000 --> 00:00:02.000\nkept"))
            #expect(!file.text.contains("frame 30"))
            #expect(!file.text.contains("sixty-five"))
            let warnings = proxy.logLines.filter { $0.contains("subtitle source read in part") }
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains("2 TTML elements") == true)
            #expect(warnings.first?.contains("frame 30 not below the frame rate 30") == true)
            #expect(warnings.first?.contains("seconds not below 60") == true)
        }
    }

    @Test func aWVTTSampleWithAMalformedBoxIsCutShortWithOneWarning() async throws {
        try await withProxy(Self.config) { proxy in
            // The fixture's second sample gets a box whose size overruns the sample, in place of its first bytes.
            var bytes = Array(try Data(contentsOf: Fixtures.url("subtitles/mp4-with-wvtt.mp4")))
            let tracks = try MP4TextTrackReader.read(bytes)
            #expect(tracks.first?.dropped.count == 0)
            let vttc = Array("vttc".utf8)
            let starts = bytes.indices.dropLast(4).filter { Array(bytes[$0..<($0 + 4)]) == vttc }
            let second = try #require(starts.dropFirst().first)
            bytes.replaceSubrange((second - 4)..<second, with: [0x00, 0x00, 0xFF, 0xFF])
            proxy.origin.setFault("/subtitles/partial.mp4", .body(bytes, contentType: "video/mp4"))
            let file = try await proxy.get(Self.path("mp4", .segment(0)))
            #expect(file.status == 200)
            #expect(file.text.contains("Hello <b>world</b>"), "the cue before the broken box is kept")
            let warnings = proxy.logLines.filter { $0.contains("subtitle source read in part") }
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains("MP4 text samples") == true)
            #expect(warnings.first?.contains("malformed box in the sample") == true)
        }
    }

    @Test func aCleanSourceLogsNoWarning() async throws {
        try await withProxy(Self.config) { proxy in
            let source = "<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><p begin=\"00:00:01:29\" end=\"00:00:59.9\">a</p></body></tt>"
            proxy.origin.setFault("/subtitles/partial.ttml", .body(Array(source.utf8), contentType: "application/ttml+xml"))
            let file = try await proxy.get(Self.path("tt", .segment(0)))
            #expect(file.status == 200)
            #expect(!proxy.logLines.contains { $0.contains("subtitle source read in part") })
        }
    }
}
