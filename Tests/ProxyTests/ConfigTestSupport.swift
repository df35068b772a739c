import Foundation
import Proxy
import TestSupport

/// Shared helpers for the config tests: fixture locations and decoding inline JSON.
enum ConfigTestSupport {
    /// An existing directory usable as a mount origin.
    static let vodDirectory = Fixtures.directory.appendingPathComponent("vod-ts").standardizedFileURL.path

    static func decode(_ json: String, environment: [String: String] = [:]) throws(ConfigError) -> ProxyConfig {
        try ProxyConfig.decode(Array(json.utf8), environment: environment)
    }

    /// The problems decoding reports; empty when the config is valid.
    static func problems(_ json: String, environment: [String: String] = [:]) -> [String] {
        do {
            _ = try decode(json, environment: environment)
            return []
        } catch {
            return error.problems
        }
    }

    /// A config whose only content is one subtitle set holding `tracks` (JSON objects, comma-separated).
    static func setJSON(tracks: String) -> String {
        #"{"subtitles": [{"name": "main", "tracks": [\#(tracks)]}]}"#
    }
}
