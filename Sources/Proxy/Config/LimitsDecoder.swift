import Foundation

/// The `limits` section: positive byte, cue and connection bounds.
enum LimitsDecoder {
    static func limits(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> ProxyConfig.Limits {
        var limits = ProxyConfig.Limits()
        let fields: [(String, WritableKeyPath<ProxyConfig.Limits, Int>)] = [
            ("max_playlist_bytes", \.maxPlaylistBytes), ("max_subtitle_bytes", \.maxSubtitleBytes),
            ("max_proxy_body_bytes", \.maxProxyBodyBytes), ("max_connections", \.maxConnections),
            ("max_subtitle_cues", \.maxSubtitleCues), ("max_tracks_response_bytes", \.maxTracksResponseBytes),
            ("max_tracks_cache_entries", \.maxTracksCacheEntries),
        ]
        guard let members = reader.object(value, at: path, keys: Set(fields.map(\.0) + ["max_origin_exchanges"])) else { return limits }
        for (key, field) in fields {
            guard let number = reader.integer(members[key], at: path.key(key)) else { continue }
            if let valid = Int(exactly: number), valid > 0 {
                limits[keyPath: field] = valid
            } else {
                reader.report(path.key(key), "must be greater than 0, got \(number)")
            }
        }
        if let number = reader.integer(members["max_origin_exchanges"], at: path.key("max_origin_exchanges")) {
            if let valid = Int(exactly: number), (1...1_000_000).contains(valid) {
                limits.maxOriginExchanges = valid
            } else {
                reader.report(path.key("max_origin_exchanges"), "must be between 1 and 1000000, got \(number)")
            }
        }
        return limits
    }
}
