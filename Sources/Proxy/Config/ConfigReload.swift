/// What a reload does with a newly read config: the settings that can only change with a restart are
/// pinned to the running values (and named, to warn about), and what does change is summed up.
///
/// Fixed at start: the listener (`listen.*`, `timeouts.header_seconds`, `timeouts.idle_seconds`,
/// `limits.max_connections`), the origin client (`timeouts.connect_seconds`, `timeouts.origin_seconds`,
/// `origin_ca_file`, `limits.max_origin_exchanges`), the disk cache (`cache.disk_directory`,
/// `cache.disk_max_bytes`) and the logger (`log_level`, `access_log`). Everything else applies live.
struct ConfigReload: Sendable {
    /// The config to install: the candidate with the fixed settings as they run.
    let effective: ProxyConfig
    /// Fixed settings the file changed, as `listen.port 8080 (the file says 9000)`.
    let keptUntilRestart: [String]
    /// What changed, as `mounts +movies -old ~news; subtitles ~films; cors`; empty when nothing did.
    let changes: [String]

    init(running: ProxyConfig, candidate: ProxyConfig) {
        var effective = candidate
        var kept: [String] = []
        for setting in Self.fixedSettings where setting.differs(running, candidate) {
            kept.append("\(setting.name) \(setting.describe(running)) (the file says \(setting.describe(candidate)))")
            setting.pin(&effective, running)
        }
        // Which keys the file set only explains where the address came from; the address itself is pinned.
        effective.listenKeysFromFile = running.listenKeysFromFile
        self.effective = effective
        self.keptUntilRestart = kept
        self.changes = Self.changes(from: running, to: effective)
    }

    /// `changes` as one phrase for the log line.
    var summary: String { changes.isEmpty ? "nothing changed" : changes.joined(separator: "; ") }

    // MARK: - Fixed settings

    private struct FixedSetting {
        let name: String
        let differs: (ProxyConfig, ProxyConfig) -> Bool
        let pin: (inout ProxyConfig, ProxyConfig) -> Void
        let describe: (ProxyConfig) -> String
    }

    private static func fixed<Value: Equatable>(_ name: String, _ path: WritableKeyPath<ProxyConfig, Value>) -> FixedSetting {
        FixedSetting(
            name: name,
            differs: { $0[keyPath: path] != $1[keyPath: path] },
            pin: { $0[keyPath: path] = $1[keyPath: path] },
            describe: { text($0[keyPath: path]) })
    }

    private static var fixedSettings: [FixedSetting] {
        [
            fixed("listen.host", \.listen.host), fixed("listen.port", \.listen.port), fixed("listen.threads", \.listen.threads),
            fixed("timeouts.header_seconds", \.timeouts.header), fixed("timeouts.idle_seconds", \.timeouts.idle),
            fixed("limits.max_connections", \.limits.maxConnections),
            fixed("timeouts.connect_seconds", \.timeouts.connect), fixed("timeouts.origin_seconds", \.timeouts.originTotal),
            fixed("origin_ca_file", \.originCAFile), fixed("limits.max_origin_exchanges", \.limits.maxOriginExchanges),
            fixed("cache.disk_directory", \.cache.diskDirectory), fixed("cache.disk_max_bytes", \.cache.diskMaxBytes),
            fixed("log_level", \.logLevel), fixed("access_log", \.accessLog),
        ]
    }

    /// A value as the warning shows it: an unset optional as `unset`, not `nil`.
    private static func text(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return "unset" }
            return text(wrapped)
        }
        if let level = value as? ProxyConfig.LogLevel { return level.rawValue }
        return "\(value)"
    }

    // MARK: - Changes

    private static func changes(from old: ProxyConfig, to new: ProxyConfig) -> [String] {
        var changes: [String] = []
        let mounts = named(old.mounts.map { ($0.name, $0) }, new.mounts.map { ($0.name, $0) })
        if !mounts.isEmpty { changes.append("mounts " + mounts) }
        let sets = named(old.subtitleSets.map { ($0.name, $0) }, new.subtitleSets.map { ($0.name, $0) })
        if !sets.isEmpty { changes.append("subtitles " + sets) }
        // Same sets in another order: the first matching set claims a master, so order is a change too.
        if sets.isEmpty && old.subtitleSets != new.subtitleSets { changes.append("subtitles reordered") }
        if old.embedded != new.embedded { changes.append("embedded") }
        if old.timeouts != new.timeouts { changes.append("timeouts") }
        if old.limits != new.limits { changes.append("limits") }
        if old.cache != new.cache { changes.append("cache") }
        if old.cors != new.cors { changes.append("cors") }
        return changes
    }

    /// `+added -removed ~changed` by name, or empty when the two lists hold the same entries.
    private static func named<Entry: Equatable>(_ old: [(String, Entry)], _ new: [(String, Entry)]) -> String {
        let before = Dictionary(old, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new, uniquingKeysWith: { first, _ in first })
        var parts: [String] = []
        for (name, _) in new where before[name] == nil { parts.append("+" + name) }
        for (name, _) in old where after[name] == nil { parts.append("-" + name) }
        for (name, entry) in new {
            if let previous = before[name], previous != entry { parts.append("~" + name) }
        }
        return parts.joined(separator: " ")
    }
}
