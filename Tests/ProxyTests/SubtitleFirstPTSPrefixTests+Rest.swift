import Foundation
@testable import Proxy
import TestSupport
import Testing

/// The rest of a segment whose PTS is settled: read in the background on a connection the origin
/// keeps (so it goes back to the pool), cut off after `drainTime` when the origin stalls, and not read
/// at all when the origin closes the connection after it.
extension SubtitleFirstPTSPrefixTests {
    /// An origin that keeps its connections open (no `Connection: close`, unlike TestOrigin's) with
    /// the fixture VOD's master, variant playlist and two sources, and `segment` for its first segment.
    static func keepAliveOrigin(segment: KeepAliveOrigin.Answer) throws -> KeepAliveOrigin {
        let files = try [
            "/vod-ts/master.m3u8": fixture("vod-ts/master.m3u8"), "/vod-ts/v0/index.m3u8": fixture("vod-ts/v0/index.m3u8"),
            "/subtitles/en.vtt": fixture("subtitles/en.vtt"), "/subtitles/fr.vtt": fixture("subtitles/fr.vtt"),
        ]
        return try KeepAliveOrigin { path, _ in
            if path == "/vod-ts/v0/seg000.ts" { return segment }
            let body = files[path] ?? []
            return .respond(Array("HTTP/1.1 \(body.isEmpty ? 404 : 200) Status\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        }
    }

    static func keepAliveConfig(_ origin: KeepAliveOrigin, originSeconds: Int = 4) -> String {
        """
        {
          "mounts": { "slow": { "origin": "http://127.0.0.1:\(origin.port)/" } },
          "subtitles": [ { "name": "vod", "masters": ["/slow/vod-ts/master.m3u8"], "tracks": [
            { "id": "en", "name": "English", "language": "en", "source": "/subtitles/en.vtt", "mode": "single" },
            { "id": "fr", "name": "Français", "language": "fr", "source": "/subtitles/fr.vtt", "mode": "single" } ] } ],
          "timeouts": { "origin_seconds": \(originSeconds) }
        }
        """
    }

    /// The debug line of the first segment's read, and of the background read of its rest.
    static func segmentLines(_ proxy: ProxyHarness, _ message: String) -> [String] {
        proxy.logLines.filter { $0.contains(#""msg":"\#(message)""#) && $0.contains("seg000.ts") }
    }

    /// The background read of a small rest ends after `drainTime` when the origin stalls on it (here
    /// it sends the head and 32 kB of the 100 kB segment on a kept connection, then nothing), so it
    /// does not hold its exchange until the deadline (10 s here).
    @Test func aStalledSmallRestIsCutOffAfterTheDrainTime() async throws {
        let segment = try fixture("vod-ts/v0/seg000.ts")
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: \(segment.count)\r\n\r\n".utf8)
        let origin = try Self.keepAliveOrigin(segment: .respond(head + segment.prefix(32 * 1024)))
        try await withProxy(Self.keepAliveConfig(origin, originSeconds: 10)) { proxy in
            let clock = ContinuousClock()
            let started = clock.now
            let vtt = try await proxy.get(Self.file("en"))
            #expect(vtt.text.contains("X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000"))
            let read = try #require(Self.segmentLines(proxy, "origin fetch").first)
            #expect(read.contains(#""rest":"reading in the background""#), "\(read)")
            try await eventually(timeout: .seconds(9)) { !Self.segmentLines(proxy, "origin fetch rest").isEmpty }
            let rest = try #require(Self.segmentLines(proxy, "origin fetch rest").first)
            #expect(rest.contains(#""rest":"cut off""#), "\(rest)")
            #expect(proxy.service.handler.origin.exchangeSlots.inFlight == 0)
            // Cut off by the 0.5 s drain time, not by the 10 s deadline (a contract, with room for a
            // loaded machine, not a speed goal).
            #expect(clock.now - started < .seconds(7), "the rest was cut off after \(clock.now - started)")
        }
        origin.stop()
    }

    /// A segment whose rest is small once its PTS is read (here all 100 kB of it) is read to its end
    /// in the background, so its connection goes back to the pool: the next origin fetch, another
    /// track's source, needs no new connection.
    @Test func aSmallSegmentsConnectionIsKeptForTheNextFetch() async throws {
        let segment = try fixture("vod-ts/v0/seg000.ts")
        let origin = try Self.keepAliveOrigin(
            segment: .respond(Array("HTTP/1.1 200 OK\r\nContent-Length: \(segment.count)\r\n\r\n".utf8) + segment))
        try await withProxy(Self.keepAliveConfig(origin)) { proxy in
            let english = try await proxy.get(Self.file("en"))
            #expect(english.text.contains("X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000"))
            #expect(origin.requests.filter { $0.target == "/vod-ts/v0/seg000.ts" }.count == 1)
            let read = try #require(Self.segmentLines(proxy, "origin fetch").first)
            #expect(read.contains(#""rest":"reading in the background""#), "\(read)")
            // The drain ends once the body has; until then its connection is not back in the pool.
            try await eventually { proxy.service.handler.origin.exchanges.connections.idleCount >= 1 }
            try await eventually { !Self.segmentLines(proxy, "origin fetch rest").isEmpty }
            let rest = try #require(Self.segmentLines(proxy, "origin fetch rest").first)
            #expect(rest.contains(#""rest":"read to its end, connection kept""#), "\(rest)")
            let before = origin.acceptedConnections
            let french = try await proxy.get(Self.file("fr"))
            #expect(french.status == 200)
            #expect(origin.requests.contains { $0.target == "/subtitles/fr.vtt" })
            #expect(origin.acceptedConnections == before, "the fr source went over a kept connection")
        }
    }

    /// The same small segment from an origin that closes its connection after it (`Connection:
    /// close`, or HTTP/1.0 without keep-alive): its rest is not read in the background, since that
    /// connection goes back to no pool; the transfer is ended once the PTS is read.
    @Test(arguments: ["HTTP/1.1 200 OK\r\nConnection: close", "HTTP/1.0 200 OK"])
    func aSmallSegmentsRestIsNotReadWhenItsConnectionIsClosedAfterIt(statusAndFields: String) async throws {
        let segment = try fixture("vod-ts/v0/seg000.ts")
        let origin = try Self.keepAliveOrigin(
            segment: .respondAndClose(Array("\(statusAndFields)\r\nContent-Length: \(segment.count)\r\n\r\n".utf8) + segment))
        try await withProxy(Self.keepAliveConfig(origin)) { proxy in
            let english = try await proxy.get(Self.file("en"))
            #expect(english.text.contains("X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000"))
            let read = try #require(Self.segmentLines(proxy, "origin fetch").first)
            #expect(read.contains(#""whole":"false""#), "\(read)")
            #expect(read.contains(#""rest":"cut off""#), "\(read)")
            #expect(Self.segmentLines(proxy, "origin fetch rest").isEmpty)
        }
        origin.stop()
    }
}
