import Foundation
@testable import Proxy
import TestSupport
import Testing

/// The video's first PTS (for X-TIMESTAMP-MAP) is read from the first segment's first bytes: the
/// transfer ends once they settle it, so a multi-megabyte segment is not downloaded for a timestamp.
@Suite struct SubtitleFirstPTSPrefixTests {
    static func config(origin: TestOrigin) -> String {
        """
        {
          "mounts": { "slow": { "origin": "\(origin.url("/"))" } },
          "subtitles": [ { "name": "vod", "masters": ["/slow/vod-ts/master.m3u8"], "tracks": [
            { "id": "en", "name": "English", "language": "en", "source": "/subtitles/en.vtt", "mode": "single" } ] } ],
          "timeouts": { "origin_seconds": 4 }
        }
        """
    }

    static let file = SubtitleURL(setName: "vod", trackID: "en", masterTarget: "/slow/vod-ts/master.m3u8", resource: .segment(0)).path

    /// An origin that sends the segment's head and first 32 kB (every stream's first PES is in the
    /// first 46 packets, 8.6 kB) and then nothing: the whole body would never come.
    static func origin(segmentBytesSent: Int) throws -> TestOrigin {
        let segment = try fixture("vod-ts/v0/seg000.ts")
        let answer = TestOrigin.response(status: 200, headers: [("Content-Type", "video/mp2t")], body: segment)
        let headLength = answer.count - segment.count
        func file(_ path: String) throws -> TestOrigin.Behaviour {
            .raw(TestOrigin.response(status: 200, body: try fixture(path)))
        }
        return try TestOrigin(routes: [
            "/vod-ts/master.m3u8": try file("vod-ts/master.m3u8"),
            "/vod-ts/v0/index.m3u8": try file("vod-ts/v0/index.m3u8"),
            "/subtitles/en.vtt": try file("subtitles/en.vtt"),
            "/vod-ts/v0/seg000.ts": .stalled(Array(answer.prefix(headLength + segmentBytesSent))),
        ])
    }

    @Test func theFirstSegmentsPTSIsReadFromItsFirstBytesAndItsTransferEnded() async throws {
        let origin = try Self.origin(segmentBytesSent: 32 * 1024)
        try await withProxy(Self.config(origin: origin)) { proxy in
            let vtt = try await proxy.get(Self.file)
            #expect(vtt.status == 200)
            #expect(vtt.text.contains("X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000"),
                    "the PTS came from the 32 kB sent, not after the 4 s origin deadline")
            #expect(HardeningSubtitleSourceTests.maxAge(vtt) != 1, "mapped, so not provisional")
            #expect(origin.requests(path: "/vod-ts/v0/seg000.ts").count == 1)
            // The proxy closed the transfer it no longer needed (the origin notices within 20 ms).
            try await eventually { origin.connectionsClosedByClient >= 1 }
            #expect(proxy.logLines.contains { $0.contains("as MPEG-TS PES PTS, its first") })
        }
        origin.stop()
    }

    @Test func aPrefixThatDoesNotSettleItIsReadToTheDeadlineAndTheCuesGoUnmappedForNow() async throws {
        // 40 packets: video only, so the earliest stream is not known yet; the rest never comes.
        let origin = try Self.origin(segmentBytesSent: 188 * 40)
        try await withProxy(Self.config(origin: origin)) { proxy in
            let vtt = try await proxy.get(Self.file)
            #expect(vtt.status == 200)
            #expect(vtt.text.contains("-->"))
            #expect(!vtt.text.contains("X-TIMESTAMP-MAP"), "never the video's 128090 from a prefix that could not tell")
        }
        origin.stop()
    }
}
