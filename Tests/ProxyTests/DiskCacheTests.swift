import Foundation
@testable import Proxy
import TestSupport
import Testing

/// The pass-through disk cache over real sockets: replays, ranges and HEAD from disk, restarts, torn
/// files, the byte budget, failed transfers, and the default of no cache at all.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DiskCacheTests {
    @Test func aSecondGetIsServedFromDiskWithoutAskingTheOrigin() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        let first = try await proxy.get("/bucket/obj/300000.ts")
        let second = try await proxy.get("/bucket/obj/300000.ts")
        await proxy.stop()
        origin.stop()
        #expect(first.status == 200)
        #expect(second.status == 200)
        #expect(second.body == GeneratedOrigin.bytes(0...299_999))
        #expect(second.header("Content-Length") == "300000")
        #expect(second.header("Content-Type") == "video/mp2t")
        #expect(second.header("ETag") == "\"obj-300000\"")
        #expect(second.header("Last-Modified") == "Tue, 01 Apr 2025 10:00:00 GMT")
        #expect(origin.requests("/obj/300000.ts").count == 1)
        #expect(DiskCacheHarness.files(directory).count == 1)
    }

    @Test(arguments: [
        ("bytes=100-199", 100...199), ("bytes=299990-", 299_990...299_999), ("bytes=-50", 299_950...299_999), ("bytes=299000-999999", 299_000...299_999),
    ])
    func rangesAreServedFromDiskWith206(range: String, expected: ClosedRange<Int>) async throws {
        let origin = try GeneratedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: try DiskCacheHarness.makeDirectory())
        _ = try await proxy.get("/bucket/obj/300000.ts")
        let response = try await proxy.get("/bucket/obj/300000.ts", headers: [("Range", range)])
        await proxy.stop()
        origin.stop()
        #expect(response.status == 206)
        #expect(response.header("Content-Range") == "bytes \(expected.lowerBound)-\(expected.upperBound)/300000")
        #expect(response.header("Content-Length") == String(expected.count))
        #expect(response.body == GeneratedOrigin.bytes(expected))
        #expect(origin.requests("/obj/300000.ts").map(\.range) == [nil])
    }

    @Test func anUnsatisfiableRangeIs416FromDiskAndAStaleIfRangeGetsTheWholeBody() async throws {
        let origin = try GeneratedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: try DiskCacheHarness.makeDirectory())
        _ = try await proxy.get("/bucket/obj/1000.ts")
        let beyond = try await proxy.get("/bucket/obj/1000.ts", headers: [("Range", "bytes=1000-")])
        let stale = try await proxy.get("/bucket/obj/1000.ts", headers: [("Range", "bytes=0-9"), ("If-Range", "\"other\"")])
        let current = try await proxy.get("/bucket/obj/1000.ts", headers: [("Range", "bytes=0-9"), ("If-Range", "\"obj-1000\"")])
        await proxy.stop()
        origin.stop()
        #expect(beyond.status == 416)
        #expect(beyond.header("Content-Range") == "bytes */1000")
        // RFC 9110 §13.1.5: a validator that does not match means the whole representation.
        #expect(stale.status == 200)
        #expect(stale.body == GeneratedOrigin.bytes(0...999))
        #expect(current.status == 206)
        #expect(current.body == GeneratedOrigin.bytes(0...9))
        #expect(origin.requests("/obj/1000.ts").count == 1)
    }

    @Test func headIsAnsweredFromDisk() async throws {
        let origin = try GeneratedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: try DiskCacheHarness.makeDirectory())
        _ = try await proxy.get("/bucket/obj/5000.ts")
        let head = try await proxy.get("/bucket/obj/5000.ts", method: "HEAD")
        await proxy.stop()
        origin.stop()
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "5000")
        #expect(head.header("ETag") == "\"obj-5000\"")
        #expect(head.body.isEmpty)
        #expect(origin.requests("/obj/5000.ts").map(\.method) == ["GET"])
    }

    @Test func theCacheSurvivesARestartWithTheOriginGone() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        let before = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        _ = try await before.get("/bucket/obj/70000.ts")
        await before.stop()
        origin.stop()
        let after = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        let replay = try await after.get("/bucket/obj/70000.ts")
        let other = try await after.get("/bucket/obj/10.ts")
        await after.stop()
        #expect(replay.status == 200)
        #expect(replay.body == GeneratedOrigin.bytes(0...69_999))
        #expect(other.status == 502)  // not stored, and the origin is down: the origin really was not asked
        #expect(origin.requests("/obj/70000.ts").count == 1)
    }

    @Test func tornEntriesAndTempFilesAreDiscardedAtStartup() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        let before = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        _ = try await before.get("/bucket/obj/4000.ts")
        await before.stop()
        let stored = try #require(DiskCacheHarness.files(directory).first)
        // A crash mid-write: the entry lost its tail, a fill left its temp file; a stranger's file stays.
        let handle = try #require(FileHandle(forUpdatingAtPath: directory + "/" + stored))
        let size = try handle.seekToEnd()
        try handle.truncate(atOffset: size - 100)
        try handle.close()
        #expect(FileManager.default.createFile(atPath: directory + "/" + stored + ".tmp.1.1", contents: Data([1, 2, 3])))
        #expect(FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data([1])))
        let after = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        #expect(after.diskCache?.count == 0)
        #expect(DiskCacheHarness.files(directory) == ["notes.txt"])
        let response = try await after.get("/bucket/obj/4000.ts")
        await after.stop()
        origin.stop()
        #expect(response.body == GeneratedOrigin.bytes(0...3999))
        #expect(origin.requests("/obj/4000.ts").count == 2)
    }

    @Test func theLeastRecentlyUsedEntryIsEvictedToStayUnderBudget() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        // Each entry is 1000 body bytes plus a header of a few hundred: two fit, three do not.
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory, maxBytes: 3000)
        _ = try await proxy.get("/bucket/obj/1000.ts?a")
        _ = try await proxy.get("/bucket/obj/1000.ts?b")
        _ = try await proxy.get("/bucket/obj/1000.ts?a")  // a is now more recent than b
        _ = try await proxy.get("/bucket/obj/1000.ts?c")
        let total = proxy.diskCache?.totalBytes ?? 0
        _ = try await proxy.get("/bucket/obj/1000.ts?a")
        _ = try await proxy.get("/bucket/obj/1000.ts?c")
        let evicted = try await proxy.get("/bucket/obj/1000.ts?b")
        await proxy.stop()
        origin.stop()
        #expect(total <= 3000)
        #expect(total > 2000)
        #expect(evicted.body == GeneratedOrigin.bytes(0...999))
        // a, b, c once each, then b again after its eviction.
        #expect(origin.requests("/obj/1000.ts").count == 4)
        #expect(DiskCacheHarness.files(directory).count == 2)
    }

    @Test func aTruncatedOriginTransferIsNotStored() async throws {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: video/mp2t\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n".utf8)
        let origin = try TestOrigin(routes: ["/short.ts": .raw(head + [UInt8](repeating: 7, count: 400))])
        let directory = try DiskCacheHarness.makeDirectory()
        let proxy = try DiskCacheHarness(originURL: "http://127.0.0.1:\(origin.port)", directory: directory)
        let first = try? await proxy.get("/bucket/short.ts")
        let second = try? await proxy.get("/bucket/short.ts")
        await proxy.stop()
        origin.stop()
        #expect(first?.body.count ?? 0 < 1000)
        #expect(second?.body.count ?? 0 < 1000)
        #expect(origin.requests(path: "/short.ts").count == 2)
        #expect(DiskCacheHarness.files(directory).isEmpty)
    }

    @Test func theCacheIsOffWithoutADirectory() async throws {
        let origin = try GeneratedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: nil)
        _ = try await proxy.get("/bucket/obj/1000.ts")
        let second = try await proxy.get("/bucket/obj/1000.ts")
        await proxy.stop()
        origin.stop()
        #expect(proxy.diskCache == nil)
        #expect(second.body == GeneratedOrigin.bytes(0...999))
        #expect(origin.requests("/obj/1000.ts").count == 2)
    }

    @Test func aClientThatHangsUpDoesNotStopTheObjectBeingStored() async throws {
        let origin = try GeneratedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: try DiskCacheHarness.makeDirectory())
        let size = 8 << 20
        try await StreamingReader.readPrefixAndHangUp(port: proxy.service.port, "/bucket/obj/\(size).ts", bytes: 64 * 1024)
        // Waits (bounded) for the fill to end; how long it takes is not what is tested.
        try await eventually { proxy.diskCache?.count == 1 }
        let tail = try await proxy.get("/bucket/obj/\(size).ts", headers: [("Range", "bytes=-1000")])
        await proxy.stop()
        origin.stop()
        #expect(origin.abortedTransfers == 0)
        #expect(tail.status == 206)
        #expect(tail.body == GeneratedOrigin.bytes((size - 1000)...(size - 1)))
        #expect(origin.requests("/obj/\(size).ts").count == 1)
    }

    @Test func requestsArrivingDuringAFillShareItsDownload() async throws {
        let body = (0..<1500).map { UInt8($0 % 251) }
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: video/mp2t\r\nContent-Length: 1500\r\nConnection: close\r\n\r\n".utf8)
        // The origin sends a byte every 2 ms, so the fill is still running when the later requests come.
        let origin = try TestOrigin(routes: ["/slow.ts": .drip(head + body, interval: .milliseconds(2))])
        let proxy = try DiskCacheHarness(originURL: "http://127.0.0.1:\(origin.port)", directory: try DiskCacheHarness.makeDirectory())
        async let first = proxy.get("/bucket/slow.ts")
        try await eventually { proxy.diskCache?.fillsRunning == 1 }
        async let second = proxy.get("/bucket/slow.ts")
        async let tail = proxy.get("/bucket/slow.ts", headers: [("Range", "bytes=1400-")])
        let responses = try await [first, second, tail]
        await proxy.stop()
        origin.stop()
        #expect(responses.map(\.status) == [200, 200, 206])
        #expect(responses[0].body == body)
        #expect(responses[1].body == body)
        #expect(responses[2].body == Array(body[1400...]))
        #expect(origin.requests(path: "/slow.ts").count == 1)
    }
}
