import Foundation
import Glibc
import TestSupport
import Testing
@testable import Proxy

/// A directory-mount media playlist's relocated bytes are kept in memory by the file's identity
/// (device, inode, size, mtime in ns from each request's fstat): played again, it is not read again;
/// edited or replaced, it is served anew, never stale.
@Suite struct DirectoryMountPlaylistFreshnessTests {
    typealias Root = DirectoryMountPlaylistTests.Root

    /// `hls_proxy_cache_hits_total{cache="file"}` as `/metrics` says it now.
    static func fileCacheHits(_ proxy: ProxyHarness) async throws -> Int? {
        let metrics = try await proxy.get("/metrics").text
        let prefix = #"hls_proxy_cache_hits_total{cache="file"} "#
        guard let line = metrics.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return nil }
        return Int(line.dropFirst(prefix.count))
    }

    /// The modification time of `path` to the nanosecond.
    static func modificationTime(_ path: String) throws -> timespec {
        var status = stat()
        guard stat(path, &status) == 0 else { throw POSIXError(.ENOENT) }
        return status.st_mtim
    }

    /// Sets the modification (and access) time of `path` to `time` exactly.
    static func setModificationTime(_ path: String, _ time: timespec) throws {
        var times = [time, time]
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw POSIXError(.EPERM) }
    }

    /// The fixture playlist with its first segment's name changed to one of the same length.
    static let editedPlaylist = DirectoryMountPlaylistTests.playlist.replacingOccurrences(of: "/v0/seg0.ts", with: "/v0/segX.ts")

    @Test func aRelocatedPlaylistPlayedAgainIsServedFromMemoryWithTheSameBytes() async throws {
        let root = try Root()
        defer { root.remove() }
        try await withProxy(root.config()) { proxy in
            let first = try await proxy.get("/disk/v0/index.m3u8")
            #expect(try await Self.fileCacheHits(proxy) == 0)
            let second = try await proxy.get("/disk/v0/index.m3u8")
            #expect(try await Self.fileCacheHits(proxy) == 1)
            #expect(second.status == 200)
            #expect(second.text == first.text)
            #expect(second.text.contains("/disk/v0/seg0.ts"))
        }
    }

    @Test func aPlaylistEditedInPlaceToTheSameSizeWithANewMtimeIsServedAnew() async throws {
        let root = try Root()
        defer { root.remove() }
        let file = root.path + "/v0/index.m3u8"
        try await withProxy(root.config()) { proxy in
            let first = try await proxy.get("/disk/v0/index.m3u8")
            #expect(first.text.contains("/disk/v0/seg0.ts"))
            let before = try Self.modificationTime(file)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
            try handle.write(contentsOf: Data(Self.editedPlaylist.utf8))
            try handle.close()
            // A later mtime, whatever the file system's timestamp granularity made of the write.
            try Self.setModificationTime(file, timespec(tv_sec: before.tv_sec + 1, tv_nsec: before.tv_nsec))
            #expect(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int == DirectoryMountPlaylistTests.playlist.utf8.count)
            let second = try await proxy.get("/disk/v0/index.m3u8")
            #expect(second.status == 200)
            #expect(second.text.contains("/disk/v0/segX.ts"))
            #expect(!second.text.contains("/disk/v0/seg0.ts"))
        }
    }

    @Test func aFileRenamedOverThePlaylistIsServedAnewEvenWithTheSameSizeAndMtime() async throws {
        let root = try Root()
        defer { root.remove() }
        let file = root.path + "/v0/index.m3u8"
        try await withProxy(root.config()) { proxy in
            let first = try await proxy.get("/disk/v0/index.m3u8")
            #expect(first.text.contains("/disk/v0/seg0.ts"))
            let replacement = root.path + "/v0/index.m3u8.new"
            try Data(Self.editedPlaylist.utf8).write(to: URL(fileURLWithPath: replacement))
            // Only the inode tells the two apart: same size, same mtime to the nanosecond.
            try Self.setModificationTime(replacement, try Self.modificationTime(file))
            #expect(rename(replacement, file) == 0)
            let second = try await proxy.get("/disk/v0/index.m3u8")
            #expect(second.status == 200)
            #expect(second.text.contains("/disk/v0/segX.ts"))
        }
    }

    @Test func aPlaylistThatNeedsNoChangeIsStillSentAsTheFileWhenPlayedAgain() async throws {
        let root = try Root()
        defer { root.remove() }
        try await withProxy(root.config()) { proxy in
            _ = try await proxy.get("/disk/v0/plain.m3u8")
            let second = try await proxy.get("/disk/v0/plain.m3u8")
            #expect(try await Self.fileCacheHits(proxy) == 1)
            #expect(second.status == 200)
            #expect(second.text == "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg1.ts\n#EXT-X-ENDLIST\n")
            #expect(second.header("Accept-Ranges") == "bytes", "still the file, ranges and all")
        }
    }

    @Test func aRemovedPlaylistIsNotFoundThoughItsBytesWereKept() async throws {
        let root = try Root()
        defer { root.remove() }
        try await withProxy(root.config()) { proxy in
            #expect(try await proxy.get("/disk/v0/index.m3u8").status == 200)
            try FileManager.default.removeItem(atPath: root.path + "/v0/index.m3u8")
            #expect(try await proxy.get("/disk/v0/index.m3u8").status == 404)
        }
    }

    @Test func withNoCacheBudgetAPlaylistIsRelocatedOnEveryRequest() async throws {
        let root = try Root()
        defer { root.remove() }
        let config = #"{ "mounts": { "disk": { "origin": "\#(root.path)" } }, "cache": { "max_bytes": 0 } }"#
        try await withProxy(config) { proxy in
            _ = try await proxy.get("/disk/v0/index.m3u8")
            let second = try await proxy.get("/disk/v0/index.m3u8")
            #expect(second.text.contains("/disk/v0/seg0.ts"))
            #expect(try await Self.fileCacheHits(proxy) == 0)
        }
    }
}
