import Foundation
@testable import Proxy
import TestSupport
import Testing

/// Stored ranges across restarts and under the byte budget: pieces come back after a restart, torn
/// pieces and temp files are deleted, and the least recently used pieces go first.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DiskCachePartialRestartTests {
    @Test func piecesSurviveARestartAndServeWithTheOriginGone() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        let before = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        _ = try await before.get("/bucket/obj/300000.ts", headers: [("Range", "bytes=0-999")])
        _ = try await before.get("/bucket/obj/300000.ts", headers: [("Range", "bytes=1000-2999")])
        await before.stop()
        origin.stop()
        let after = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        let pieces = after.diskCache?.pieceCount
        let joined = try await after.get("/bucket/obj/300000.ts", headers: [("Range", "bytes=500-2499")])
        let beyond = try await after.get("/bucket/obj/300000.ts", headers: [("Range", "bytes=3000-3999")])
        await after.stop()
        #expect(pieces == 2)
        #expect(joined.status == 206)
        #expect(joined.header("Content-Range") == "bytes 500-2499/300000")
        #expect(joined.body == GeneratedOrigin.bytes(500...2499))
        #expect(beyond.status == 502)  // not stored, and the origin is down: the origin really was not asked before
        #expect(origin.requests("/obj/300000.ts").map(\.range) == ["bytes=0-999", "bytes=1000-2999"])
    }

    @Test func aTornPieceAndATempFileAreDeletedAtStartupAndNotServed() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        let before = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        _ = try await before.get("/bucket/obj/4000.ts", headers: [("Range", "bytes=0-1999")])
        await before.stop()
        let stored = try #require(DiskCacheHarness.files(directory).first)
        #expect(stored.hasSuffix(".0.piece"))
        // A crash mid-write: the piece lost its tail, a fill left its temp file; a stranger's file stays.
        let handle = try #require(FileHandle(forUpdatingAtPath: directory + "/" + stored))
        let size = try handle.seekToEnd()
        try handle.truncate(atOffset: size - 100)
        try handle.close()
        #expect(FileManager.default.createFile(atPath: directory + "/" + stored + ".tmp.1.1", contents: Data([1, 2, 3])))
        #expect(FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data([1])))
        let after = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        #expect(after.diskCache?.count == 0)
        #expect(DiskCacheHarness.files(directory) == ["notes.txt"])
        let response = try await after.get("/bucket/obj/4000.ts", headers: [("Range", "bytes=0-1999")])
        await after.stop()
        origin.stop()
        #expect(response.body == GeneratedOrigin.bytes(0...1999))
        #expect(response.header("X-HLS-Proxy-Route") == "proxy")
        #expect(origin.requests("/obj/4000.ts").map(\.range) == ["bytes=0-1999", "bytes=0-1999"])
    }

    @Test func aPieceWhoseHeaderNamesAnotherOffsetIsDeletedAtStartup() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        let before = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        _ = try await before.get("/bucket/obj/4000.ts", headers: [("Range", "bytes=1000-1999")])
        await before.stop()
        origin.stop()
        let stored = try #require(DiskCacheHarness.files(directory).first)
        #expect(stored.hasSuffix(".1000.piece"))
        // Renamed as if it began at byte 0: serving it would put its bytes in the wrong place.
        try FileManager.default.moveItem(atPath: directory + "/" + stored, toPath: directory + "/" + stored.replacingOccurrences(of: ".1000.", with: ".0."))
        let after = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        await after.stop()
        #expect(after.diskCache?.count == 0)
        #expect(DiskCacheHarness.files(directory).isEmpty)
    }

    @Test func theLeastRecentlyUsedPieceIsEvictedToStayUnderBudget() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        // Each piece is 1000 body bytes plus a header of a few hundred: two fit, three do not.
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory, maxBytes: 3000)
        _ = try await proxy.get("/bucket/obj/10000.ts", headers: [("Range", "bytes=0-999")])
        _ = try await proxy.get("/bucket/obj/10000.ts", headers: [("Range", "bytes=2000-2999")])
        _ = try await proxy.get("/bucket/obj/10000.ts", headers: [("Range", "bytes=0-999")])  // now more recent
        _ = try await proxy.get("/bucket/obj/10000.ts", headers: [("Range", "bytes=4000-4999")])
        let total = proxy.diskCache?.totalBytes ?? 0
        let kept = try await proxy.get("/bucket/obj/10000.ts", headers: [("Range", "bytes=0-999")])
        let evicted = try await proxy.get("/bucket/obj/10000.ts", headers: [("Range", "bytes=2000-2999")])
        await proxy.stop()
        origin.stop()
        #expect(total <= 3000)
        #expect(total > 2000)
        #expect(kept.header("X-HLS-Proxy-Route") == "cache")
        #expect(evicted.body == GeneratedOrigin.bytes(2000...2999))
        #expect(origin.requests("/obj/10000.ts").map(\.range) == ["bytes=0-999", "bytes=2000-2999", "bytes=4000-4999", "bytes=2000-2999"])
        #expect(DiskCacheHarness.files(directory).count == 2)
    }

    @Test func aCompleteObjectReplacesThePiecesOfItsKey() async throws {
        let origin = try VersionedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        _ = try await proxy.get("/bucket/nv/3000.ts", headers: [("Range", "bytes=0-999")])
        let piecesBefore = DiskCacheHarness.files(directory)
        // Without a validator the piece cannot be joined to new bytes, so the whole object is fetched.
        let full = try await proxy.get("/bucket/nv/3000.ts")
        let files = DiskCacheHarness.files(directory)
        await proxy.stop()
        await origin.stop()
        #expect(piecesBefore.count == 1 && piecesBefore.first?.hasSuffix(".0.piece") == true)
        #expect(full.body == VersionedOrigin.bytes(0...2999, version: 1))
        #expect(files.count == 1)
        #expect(files.first?.hasSuffix(".entry") == true)
        #expect(origin.requests("/nv/3000.ts").map(\.range) == ["bytes=0-999", nil])
    }
}
