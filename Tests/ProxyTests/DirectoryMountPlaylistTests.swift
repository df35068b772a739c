import Foundation
import HLS
import TestSupport
import Testing
@testable import Proxy

/// Media playlists on directory mounts, fetched over real sockets: a path-absolute URI (`/v0/seg0.ts`)
/// names the mount's root, as on an http mount it names the origin's, so it is served as
/// `/<mount>/v0/seg0.ts` and the player's next request reaches the file (RFC 8216 §4.1, RFC 3986 §5.2).
@Suite struct DirectoryMountPlaylistTests {
    static let playlist = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:4
        #EXT-X-MAP:URI="/v0/init.mp4"
        #EXTINF:4.0,
        /v0/seg0.ts
        #EXTINF:4.0,
        seg1.ts
        #EXTINF:4.0,
        https://elsewhere.example/seg2.ts
        #EXT-X-ENDLIST

        """

    /// A temp mount root with `v0/index.m3u8` (the playlist above), `v0/plain.m3u8` (relative URIs
    /// only), `v0/seg0.ts` and `v0/seg1.ts`.
    struct Root {
        let path: String

        init() throws {
            path = NSTemporaryDirectory() + "dir-playlist-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: path + "/v0", withIntermediateDirectories: true)
            try Data(DirectoryMountPlaylistTests.playlist.utf8).write(to: URL(fileURLWithPath: path + "/v0/index.m3u8"))
            try Data("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg1.ts\n#EXT-X-ENDLIST\n".utf8)
                .write(to: URL(fileURLWithPath: path + "/v0/plain.m3u8"))
            try Data("seg0-bytes".utf8).write(to: URL(fileURLWithPath: path + "/v0/seg0.ts"))
            try Data("seg1-bytes".utf8).write(to: URL(fileURLWithPath: path + "/v0/seg1.ts"))
        }

        func config(limit: Int? = nil) -> String {
            let limits = limit.map { #", "limits": { "max_playlist_bytes": \#($0) }"# } ?? ""
            return #"{ "mounts": { "disk": { "origin": "\#(path)" } }\#(limits) }"#
        }

        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    @Test func aPathAbsoluteSegmentURIIsServedUnderTheMountAndItsFileIsReached() async throws {
        let root = try Root()
        defer { root.remove() }
        try await withProxy(root.config()) { proxy in
            let response = try await proxy.get("/disk/v0/index.m3u8")
            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.contains("mpegurl") == true)
            let lines = response.text.split(separator: "\n").map(String.init)
            #expect(lines.contains("/disk/v0/seg0.ts"))
            #expect(lines.contains(#"#EXT-X-MAP:URI="/disk/v0/init.mp4""#), "URI attributes too")
            #expect(lines.contains("seg1.ts"), "relative URIs already resolve under the mount")
            #expect(lines.contains("https://elsewhere.example/seg2.ts"), "a host no mount covers is left as written")
            let segment = try await proxy.get("/disk/v0/seg0.ts")
            #expect(segment.status == 200)
            #expect(segment.text == "seg0-bytes")
        }
    }

    @Test func aPlaylistThatNeedsNoChangeIsSentAsTheFileItIs() async throws {
        let root = try Root()
        defer { root.remove() }
        try await withProxy(root.config()) { proxy in
            let response = try await proxy.get("/disk/v0/plain.m3u8")
            #expect(response.status == 200)
            #expect(response.text == "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg1.ts\n#EXT-X-ENDLIST\n")
            #expect(response.header("Accept-Ranges") == "bytes", "still the file, ranges and all")
        }
    }

    @Test func aPlaylistLargerThanTheLimitIsSentUnread() async throws {
        let root = try Root()
        defer { root.remove() }
        try await withProxy(root.config(limit: 64)) { proxy in
            let response = try await proxy.get("/disk/v0/index.m3u8")
            #expect(response.status == 200)
            #expect(response.text == Self.playlist)
        }
    }

    @Test func aSegmentFileIsNeverRewritten() async throws {
        let root = try Root()
        defer { root.remove() }
        try Data("/v0/seg0.ts\n".utf8).write(to: URL(fileURLWithPath: root.path + "/v0/list.txt"))
        try await withProxy(root.config()) { proxy in
            let response = try await proxy.get("/disk/v0/list.txt")
            #expect(response.text == "/v0/seg0.ts\n")
        }
    }

    @Test func theVideoTimelineFollowsPathAbsoluteURIsOnADirectoryMountSoSubtitleSegmentsAreMapped() async throws {
        let root = try Root()
        defer { root.remove() }
        let files = FileManager.default
        try files.createDirectory(atPath: root.path + "/ts", withIntermediateDirectories: true)
        for segment in ["seg000.ts", "seg001.ts"] {
            try files.copyItem(atPath: Fixtures.url("vod-ts/v0/\(segment)").path, toPath: root.path + "/ts/\(segment)")
        }
        try Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\n/ts/index.m3u8\n".utf8).write(to: URL(fileURLWithPath: root.path + "/master.m3u8"))
        try Data("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n/ts/seg000.ts\n#EXTINF:4,\n/ts/seg001.ts\n#EXT-X-ENDLIST\n".utf8)
            .write(to: URL(fileURLWithPath: root.path + "/ts/index.m3u8"))
        try Data("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhello\n".utf8).write(to: URL(fileURLWithPath: root.path + "/en.vtt"))
        let config = #"{ "mounts": { "disk": { "origin": "\#(root.path)" } }, "subtitles": [ { "name": "s", "masters": ["/disk/master.m3u8"], "#
            + #""tracks": [ { "id": "en", "language": "en", "name": "English", "source": "/en.vtt" } ] } ] }"#
        try await withProxy(config) { proxy in
            let master = try await proxy.get("/disk/master.m3u8")
            #expect(master.text.contains("\n/disk/ts/index.m3u8\n"))
            let path = SubtitleURL(setName: "s", trackID: "en", masterTarget: "/disk/master.m3u8", resource: .segment(0)).path
            let playlist = try await proxy.get(SubtitleURL(setName: "s", trackID: "en", masterTarget: "/disk/master.m3u8", resource: .playlist).path)
            #expect(playlist.text.split(separator: "\n").filter { !$0.hasPrefix("#") } == ["0.vtt", "1.vtt"], "the video's two segments")
            let file = try await proxy.get(path)
            let pts = try MPEGTSReader.firstPTS(Array(Data(contentsOf: Fixtures.url("vod-ts/v0/seg000.ts"))))
            #expect(file.text.contains("X-TIMESTAMP-MAP=MPEGTS:\(pts),LOCAL:00:00:00.000"))
        }
    }
}
