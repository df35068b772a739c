import Foundation
import HLS
import TestSupport

/// The playlist tests' view of Tests/Fixtures: corpus listings, golden files, the tracks they add.
enum PlaylistFixtures {
    /// Tests/Fixtures.
    static let root = Fixtures.directory

    /// The bytes of `Tests/Fixtures/<path>`.
    static func bytes(_ path: String) throws -> [UInt8] {
        try fixture(path)
    }

    /// File names (not paths) of the `.m3u8` files in `Tests/Fixtures/<directory>`, sorted.
    static func playlists(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(directory).path)) ?? []
        return names.filter { $0.hasSuffix(".m3u8") }.sorted()
    }

    /// Every corpus master's file name.
    static let masters = playlists(in: "corpus/master")
    /// Every corpus media playlist's file name.
    static let mediaPlaylists = playlists(in: "corpus/media")

    /// Compares `actual` with the golden file `Tests/Fixtures/golden/<path>`. With
    /// `HLS_RECORD_GOLDEN=1` in the environment the file is (re)written first, for review by eye.
    static func golden(_ path: String) throws -> [UInt8] {
        try bytes("golden/" + path)
    }

    /// Writes a golden file when recording is switched on; returns whether it did.
    @discardableResult
    static func recordGoldenIfAsked(_ path: String, _ bytes: [UInt8]) throws -> Bool {
        guard ProcessInfo.processInfo.environment["HLS_RECORD_GOLDEN"] == "1" else { return false }
        let url = root.appendingPathComponent("golden/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return true
    }

    /// The two tracks the corpus tests add: English (DEFAULT, AUTOSELECT) and French with
    /// CHARACTERISTICS (a quoted value with a comma), both NAMEs colliding with Apple's bipbop master.
    static let tracks = [
        SubtitleTrack(name: "English", language: "en", isDefault: true, autoselect: true),
        SubtitleTrack(
            name: "Français", language: "fr", autoselect: true,
            characteristics: ["public.accessibility.transcribes-spoken-dialog", "public.accessibility.describes-music-and-sound"]
        ),
    ]

    /// The URI of test track `index`.
    static func trackURI(_ index: Int) -> String {
        "subtitles/\(index)/playlist.m3u8"
    }
}
