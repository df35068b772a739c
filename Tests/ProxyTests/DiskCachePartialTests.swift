import Foundation
@testable import Proxy
import TestSupport
import Testing

/// Ranges stored by the pass-through disk cache, over real sockets: replays from disk, seeks that fetch
/// only the missing bytes, full GETs that fill the gaps, versions never mixed, HEAD and 416 from pieces.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DiskCachePartialTests {
    @Test func aRepeatedRangeIsServedFromTheStoredPieceWithoutTheOrigin() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        let first = try await proxy.get("/bucket/obj/300000.ts", headers: [("Range", "bytes=1000-1999")])
        let second = try await proxy.get("/bucket/obj/300000.ts", headers: [("Range", "bytes=1000-1999")])
        await proxy.stop()
        origin.stop()
        #expect(first.status == 206)
        #expect(first.header("X-HLS-Proxy-Route") == "proxy")
        #expect(second.status == 206)
        #expect(second.header("X-HLS-Proxy-Route") == "cache")
        #expect(second.header("Content-Range") == "bytes 1000-1999/300000")
        #expect(second.header("Content-Length") == "1000")
        #expect(second.header("ETag") == "\"obj-300000\"")
        #expect(second.body == GeneratedOrigin.bytes(1000...1999))
        #expect(second.body == first.body)
        #expect(origin.requests("/obj/300000.ts").map(\.range) == ["bytes=1000-1999"])
        #expect(DiskCacheHarness.files(directory).filter { $0.hasSuffix(".piece") }.count == 1)
    }

    @Test func aSeekAfterAPartialPlayFetchesOnlyTheMissingRange() async throws {
        let origin = try GeneratedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: try DiskCacheHarness.makeDirectory())
        _ = try await proxy.get("/bucket/obj/300000.ts", headers: [("Range", "bytes=0-999")])
        let seek = try await proxy.get("/bucket/obj/300000.ts", headers: [("Range", "bytes=500-1999")])
        let replay = try await proxy.get("/bucket/obj/300000.ts", headers: [("Range", "bytes=0-1999")])
        await proxy.stop()
        origin.stop()
        #expect(seek.status == 206)
        #expect(seek.header("Content-Range") == "bytes 500-1999/300000")
        #expect(seek.body == GeneratedOrigin.bytes(500...1999))
        #expect(replay.status == 206)
        #expect(replay.body == GeneratedOrigin.bytes(0...1999))
        #expect(replay.header("X-HLS-Proxy-Route") == "cache")
        // One request for the first range, one for the bytes the seek lacked, none for the replay.
        #expect(origin.requests("/obj/300000.ts").map(\.range) == ["bytes=0-999", "bytes=1000-1999"])
    }

    @Test func aFullGetAfterTwoStoredRangesFetchesExactlyTheGaps() async throws {
        let origin = try GeneratedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: try DiskCacheHarness.makeDirectory())
        _ = try await proxy.get("/bucket/obj/10000.ts", headers: [("Range", "bytes=1000-1999")])
        _ = try await proxy.get("/bucket/obj/10000.ts", headers: [("Range", "bytes=5000-5999")])
        let full = try await proxy.get("/bucket/obj/10000.ts")
        let again = try await proxy.get("/bucket/obj/10000.ts")
        await proxy.stop()
        origin.stop()
        #expect(full.status == 200)
        #expect(full.header("Content-Length") == "10000")
        #expect(full.header("Content-Range") == nil)
        #expect(full.body == GeneratedOrigin.bytes(0...9999))
        #expect(again.status == 200)
        #expect(again.body == GeneratedOrigin.bytes(0...9999))
        #expect(again.header("X-HLS-Proxy-Route") == "cache")
        #expect(origin.requests("/obj/10000.ts").map(\.range) == [
            "bytes=1000-1999", "bytes=5000-5999", "bytes=0-999", "bytes=2000-4999", "bytes=6000-9999",
        ])
    }

    @Test func aChangedObjectIsServedWholeAndNeverJoinedToStoredBytes() async throws {
        let origin = try VersionedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: try DiskCacheHarness.makeDirectory())
        _ = try await proxy.get("/bucket/v/4000.ts", headers: [("Range", "bytes=0-999")])
        origin.setVersion(2)
        let full = try await proxy.get("/bucket/v/4000.ts")
        let head = try await proxy.get("/bucket/v/4000.ts", headers: [("Range", "bytes=0-999")])
        await proxy.stop()
        await origin.stop()
        #expect(full.status == 200)
        #expect(full.header("ETag") == "\"v2\"")
        #expect(full.body == VersionedOrigin.bytes(0...3999, version: 2))
        // The gap was asked for with the stored version's validator; the origin's 200 said it changed.
        #expect(origin.requests("/v/4000.ts").map(\.ifRange) == [nil, "\"v1\""])
        #expect(origin.requests("/v/4000.ts").map(\.range) == ["bytes=0-999", "bytes=1000-3999"])
        // The new whole object replaced the stale piece.
        #expect(head.body == VersionedOrigin.bytes(0...999, version: 2))
        #expect(origin.requests("/v/4000.ts").count == 2)
    }

    @Test func anObjectThatChangesAfterTheBodyStartedAbortsTheResponse() async throws {
        let origin = try VersionedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: try DiskCacheHarness.makeDirectory())
        _ = try await proxy.get("/bucket/v/4000.ts", headers: [("Range", "bytes=0-999")])
        _ = try await proxy.get("/bucket/v/4000.ts", headers: [("Range", "bytes=2000-2999")])
        // The first gap (1000-1999) is still version 1; the second (3000-3999) finds version 2.
        origin.changeVersion(to: 2, afterRequests: 3)
        let full = try? await proxy.get("/bucket/v/4000.ts")
        let after = try await proxy.get("/bucket/v/4000.ts", headers: [("Range", "bytes=0-999")])
        await proxy.stop()
        await origin.stop()
        let received = full?.body ?? []
        // Never a complete body: what arrived before the abort is version 1 bytes only.
        #expect(received.count < 4000)
        #expect(received == VersionedOrigin.bytes(0...3999, version: 1).prefix(received.count).map { $0 })
        #expect(origin.requests("/v/4000.ts").map(\.range) == ["bytes=0-999", "bytes=2000-2999", "bytes=1000-1999", "bytes=3000-3999", "bytes=0-999"])
        // The stale pieces were dropped: the next range is fetched again, and is the new version.
        #expect(after.body == VersionedOrigin.bytes(0...999, version: 2))
    }

    @Test func headAndUnsatisfiableRangesAreAnsweredFromAPiece() async throws {
        let origin = try GeneratedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: try DiskCacheHarness.makeDirectory())
        _ = try await proxy.get("/bucket/obj/5000.ts", headers: [("Range", "bytes=0-999")])
        let beyond = try await proxy.get("/bucket/obj/5000.ts", headers: [("Range", "bytes=5000-")])
        let head = try await proxy.get("/bucket/obj/5000.ts", method: "HEAD")
        let headRange = try await proxy.get("/bucket/obj/5000.ts", method: "HEAD", headers: [("Range", "bytes=100-199")])
        await proxy.stop()
        origin.stop()
        #expect(beyond.status == 416)
        #expect(beyond.header("Content-Range") == "bytes */5000")
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "5000")
        #expect(head.header("ETag") == "\"obj-5000\"")
        #expect(head.header("Content-Type") == "video/mp2t")
        #expect(head.body.isEmpty)
        #expect(headRange.status == 206)
        #expect(headRange.header("Content-Range") == "bytes 100-199/5000")
        #expect([beyond, head, headRange].allSatisfy { $0.header("X-HLS-Proxy-Route") == "cache" })
        #expect(origin.requests("/obj/5000.ts").map(\.range) == ["bytes=0-999"])
    }

    @Test func aRangeOfUnknownTotalLengthIsNotStored() async throws {
        let origin = try VersionedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        let first = try await proxy.get("/bucket/star/1000.ts", headers: [("Range", "bytes=0-9")])
        let second = try await proxy.get("/bucket/star/1000.ts", headers: [("Range", "bytes=0-9")])
        await proxy.stop()
        await origin.stop()
        #expect(first.status == 206)
        #expect(first.header("Content-Range") == "bytes 0-9/*")
        #expect(second.body == VersionedOrigin.bytes(0...9, version: 1))
        #expect(origin.requests("/star/1000.ts").count == 2)
        #expect(DiskCacheHarness.files(directory).isEmpty)
    }

    @Test func piecesWithoutAValidatorAreNeverJoined() async throws {
        let origin = try VersionedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: try DiskCacheHarness.makeDirectory())
        _ = try await proxy.get("/bucket/nv/4000.ts", headers: [("Range", "bytes=0-999")])
        let inside = try await proxy.get("/bucket/nv/4000.ts", headers: [("Range", "bytes=100-199")])
        let across = try await proxy.get("/bucket/nv/4000.ts", headers: [("Range", "bytes=500-1999")])
        await proxy.stop()
        await origin.stop()
        #expect(inside.body == VersionedOrigin.bytes(100...199, version: 1))
        #expect(inside.header("X-HLS-Proxy-Route") == "cache")
        #expect(across.body == VersionedOrigin.bytes(500...1999, version: 1))
        // Nothing says the stored bytes are the origin's current ones: the whole range is asked for.
        #expect(origin.requests("/nv/4000.ts").map(\.range) == ["bytes=0-999", "bytes=500-1999"])
    }

    @Test func requestsForTheSameMissingRangeShareOneDownload() async throws {
        let origin = try VersionedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: try DiskCacheHarness.makeDirectory())
        _ = try await proxy.get("/bucket/v/3000.ts", headers: [("Range", "bytes=0-999")])
        origin.sendSlowly(range: "bytes=1000-2999")
        async let first = proxy.get("/bucket/v/3000.ts")
        // Waits (bounded) until the first request's gap is being stored; how long it takes is not tested.
        try await eventually { proxy.diskCache?.fillsRunning == 1 }
        async let second = proxy.get("/bucket/v/3000.ts")
        let responses = try await [first, second]
        await proxy.stop()
        await origin.stop()
        #expect(responses.map(\.status) == [200, 200])
        #expect(responses.allSatisfy { $0.body == VersionedOrigin.bytes(0...2999, version: 1) })
        #expect(origin.requests("/v/3000.ts").map(\.range) == ["bytes=0-999", "bytes=1000-2999"])
    }
}
