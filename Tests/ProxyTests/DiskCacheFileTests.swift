import Foundation
import HTTPServer
@testable import HTTPWire
@testable import Proxy
import TestSupport
import Testing

/// Complete stored objects are answered on the server's loop thread, their bodies sent from the entry
/// file with sendfile; anything else about them is as in DiskCacheTests.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DiskCacheFileTests {
    static func request(_ path: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPRequest {
        HTTPRequest(method: .get, target: path, path: path, rawPath: path, query: nil, headers: headers)
    }

    @Test func aStoredObjectIsAnsweredAtOnceAsARegionOfItsEntryFile() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        let handler = proxy.service.handler
        // Not stored yet: left to the async handler, which fetches and stores it.
        #expect(handler.handleImmediately(Self.request("/bucket/obj/5000.ts")) == nil)
        _ = try await proxy.get("/bucket/obj/5000.ts")
        let whole = try #require(handler.handleImmediately(Self.request("/bucket/obj/5000.ts")))
        let part = try #require(handler.handleImmediately(Self.request("/bucket/obj/5000.ts", headers: ["Range": "bytes=10-19"])))
        await proxy.stop()
        origin.stop()
        guard case .file(let region) = whole.body, case .file(let slice) = part.body else {
            Issue.record("expected file bodies, got \(whole.body) and \(part.body)")
            return
        }
        #expect(whole.headers["X-HLS-Proxy-Route"] == "cache")
        #expect(region.length == 5000)
        // The body starts after the entry's header, and the file holds exactly header plus body.
        #expect(region.offset > 0)
        #expect(region.offset + region.length == region.file.size)
        let entryName = try #require(DiskCacheHarness.files(directory).first)
        let entryBytes = Array(try #require(FileManager.default.contents(atPath: directory + "/" + entryName)))
        #expect(Array(entryBytes[region.offset...]) == GeneratedOrigin.bytes(0...4999))
        #expect(part.status == .partialContent)
        #expect(part.headers["Content-Range"] == "bytes 10-19/5000")
        #expect(slice.offset == region.offset + 10)
        #expect(slice.length == 10)
    }

    @Test func aStoredFileThatLostBytesIsDroppedNotServed() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        _ = try await proxy.get("/bucket/obj/5000.ts")
        // Served once from disk, so the entry file is held open between hits.
        let held = proxy.service.handler.handleImmediately(Self.request("/bucket/obj/5000.ts"))
        #expect(held?.status == .ok)
        #expect(proxy.diskCache?.store.index.withLock { $0.openFiles.count } == 1)
        let entry = try #require(DiskCacheHarness.files(directory).first)
        #expect(truncate(directory + "/" + entry, 100) == 0)
        let immediate = proxy.service.handler.handleImmediately(Self.request("/bucket/obj/5000.ts"))
        let again = try await proxy.get("/bucket/obj/5000.ts")
        await proxy.stop()
        origin.stop()
        #expect(immediate == nil)
        #expect(proxy.diskCache?.store.index.withLock { $0.openFiles.count } == 0)
        #expect(again.status == 200)
        #expect(again.body == GeneratedOrigin.bytes(0...4999))
        #expect(origin.requests("/obj/5000.ts").count == 2)
    }
}

extension DiskCacheFileTests {
    @Test func heldEntryFilesAreBoundedAndLetGoWithTheirEntries() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        // Room for two 5,000-byte objects with their headers, not three.
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory, maxBytes: 12_000)
        let handler = proxy.service.handler
        for size in [5000, 5001] {
            _ = try await proxy.get("/bucket/obj/\(size).ts")
            #expect(handler.handleImmediately(Self.request("/bucket/obj/\(size).ts"))?.status == .ok)
        }
        let heldBefore = proxy.diskCache?.store.index.withLock { $0.openFiles.count }
        // A third object evicts the least recently used one, and its descriptor goes with it.
        _ = try await proxy.get("/bucket/obj/5002.ts")
        let heldAfter = proxy.diskCache?.store.index.withLock { Set($0.openFiles.keys) }
        let entries = proxy.diskCache?.store.index.withLock { Set($0.entries.keys) }
        await proxy.stop()
        origin.stop()
        #expect(heldBefore == 2)
        #expect(heldAfter?.count == 1)
        #expect(heldAfter?.isSubset(of: entries ?? []) == true)
    }
}
