import Foundation

/// The `cache` section: TTLs, the memory bound and the disk tier.
struct CacheDecoder {
    /// What a relative `disk_directory` resolves against: the config file's directory.
    let baseDirectory: String

    func cache(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> ProxyConfig.CacheSettings {
        var cache = ProxyConfig.CacheSettings()
        let keys: Set<String> = ["master_ttl_seconds", "subtitle_ttl_seconds", "max_bytes", "disk_directory", "disk_max_bytes", "fallback_ttl_seconds", "tracks_ttl_seconds", "tracks_stale_seconds"]
        guard let members = reader.object(value, at: path, keys: keys) else { return cache }
        diskCache(members, at: path, into: &cache, in: &reader)
        let ttls = [("master_ttl_seconds", \ProxyConfig.CacheSettings.masterTTL), ("subtitle_ttl_seconds", \.subtitleTTL), ("fallback_ttl_seconds", \.fallbackTTL), ("tracks_ttl_seconds", \.tracksTTL), ("tracks_stale_seconds", \.tracksStale)]
        for (key, field) in ttls {
            guard let seconds = reader.number(members[key], at: path.key(key)) else { continue }
            if seconds >= 0 { cache[keyPath: field] = seconds } else { reader.report(path.key(key), "must be 0 or more, got \(ConfigReader.formatted(seconds))") }
        }
        if let bytes = reader.integer(members["max_bytes"], at: path.key("max_bytes")) {
            if let valid = Int(exactly: bytes), valid >= 0 { cache.maxBytes = valid } else {
                reader.report(path.key("max_bytes"), "must be 0 or more, got \(bytes)")
            }
        }
        return cache
    }

    /// `disk_directory` (relative paths resolve against the config file's directory) and `disk_max_bytes`.
    private func diskCache(
        _ members: [String: ConfigValue], at path: ConfigPath, into cache: inout ProxyConfig.CacheSettings,
        in reader: inout ConfigReader
    ) {
        if let directory = reader.string(members["disk_directory"], at: path.key("disk_directory")) {
            if directory.isEmpty || directory.contains("\0") {
                reader.report(path.key("disk_directory"), "must be a directory path")
            } else {
                cache.diskDirectory = directory.hasPrefix("/") ? directory : baseDirectory + "/" + directory
            }
        }
        if let bytes = reader.integer(members["disk_max_bytes"], at: path.key("disk_max_bytes")) {
            if let valid = Int(exactly: bytes), valid > 0 { cache.diskMaxBytes = valid } else {
                reader.report(path.key("disk_max_bytes"), "must be greater than 0, got \(bytes)")
            }
        }
    }
}
