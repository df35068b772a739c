import Foundation

extension ConfigReader {
    /// The whole config; values that fail validation are reported and replaced by their defaults.
    mutating func proxyConfig(_ document: ConfigValue, baseDirectory: String) -> ProxyConfig {
        var config = ProxyConfig()
        if case .object = document {} else {
            report(.root, "expected a JSON object, got \(document.summary)")
            return config
        }
        let root = ConfigPath.root
        let keys: Set<String> = [
            "listen", "mounts", "embedded", "subtitles", "timeouts", "limits", "cache", "cors", "log_level", "access_log",
            "origin_ca_file",
        ]
        guard let members = object(document, at: root, keys: keys) else { return config }
        config.listen = listen(members["listen"], at: root.key("listen"))
        if case .object(let listen)? = members["listen"] { config.listenKeysFromFile = Set(listen.filter { $0.value != .null }.keys) }
        config.mounts = mounts(members["mounts"], at: root.key("mounts"), baseDirectory: baseDirectory)
        config.embedded = embedded(members["embedded"], at: root.key("embedded"))
        config.subtitleSets = subtitleSets(members["subtitles"], at: root.key("subtitles"))
        config.timeouts = timeouts(members["timeouts"], at: root.key("timeouts"))
        config.limits = limits(members["limits"], at: root.key("limits"))
        config.cache = cache(members["cache"], at: root.key("cache"), baseDirectory: baseDirectory)
        config.cors = cors(members["cors"], at: root.key("cors"))
        config.logLevel = choice(members["log_level"], at: root.key("log_level"))
        if let accessLog = bool(members["access_log"], at: root.key("access_log")) { config.accessLog = accessLog }
        config.originCAFile = caFile(members["origin_ca_file"], at: root.key("origin_ca_file"), baseDirectory: baseDirectory)
        return config
    }

    /// `origin_ca_file`: a readable file, relative paths against the config file's directory. Read
    /// here so a typo stops the start instead of failing every https fetch later.
    private mutating func caFile(_ value: ConfigValue?, at path: ConfigPath, baseDirectory: String) -> String? {
        guard let given = string(value, at: path) else { return nil }
        guard !given.isEmpty, !given.contains("\0") else {
            report(path, "must be a file path")
            return nil
        }
        let file = given.hasPrefix("/") ? given : baseDirectory + "/" + given
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue,
              FileManager.default.isReadableFile(atPath: file) else {
            report(path, "\(Self.quoted(file)) is not a readable file")
            return nil
        }
        return file
    }

    private mutating func listen(_ value: ConfigValue?, at path: ConfigPath) -> ProxyConfig.Listen {
        var listen = ProxyConfig.Listen()
        guard let members = object(value, at: path, keys: ["host", "port", "threads"]) else { return listen }
        if let host = string(members["host"], at: path.key("host")) {
            if host.isEmpty || host.unicodeScalars.contains(where: { $0 == " " || $0 == "\t" || $0 == "/" }) {
                report(path.key("host"), "\(Self.quoted(host)) is not a host name or address")
            } else {
                listen.host = host
            }
        }
        if let port = integer(members["port"], at: path.key("port")) {
            if let valid = Int(exactly: port), (0...65535).contains(valid) {
                listen.port = valid
            } else {
                report(path.key("port"), "port \(port) is outside 0...65535")
            }
        }
        if let threads = integer(members["threads"], at: path.key("threads")) {
            if let valid = Int(exactly: threads), (1...ProxyConfig.Listen.maxThreads).contains(valid) {
                listen.threads = valid
            } else {
                report(path.key("threads"), "threads \(threads) is outside 1...\(ProxyConfig.Listen.maxThreads)")
            }
        }
        return listen
    }

    private mutating func embedded(_ value: ConfigValue?, at path: ConfigPath) -> ProxyConfig.EmbeddedOrigins {
        var embedded = ProxyConfig.EmbeddedOrigins()
        guard let members = object(value, at: path, keys: ["allow_hosts", "allow_private_networks"]) else { return embedded }
        if let allow = members["allow_private_networks"], let flag = bool(allow, at: path.key("allow_private_networks")) {
            embedded.allowPrivateNetworks = flag
        }
        guard let elements = array(members["allow_hosts"], at: path.key("allow_hosts")) else { return embedded }
        for (index, element) in elements.enumerated() {
            let elementPath = path.key("allow_hosts").index(index)
            guard let text = string(element, at: elementPath) else { continue }
            if text == "*" {
                // An allow-all list would make the proxy an open relay to any host, intranet included.
                report(elementPath, "\"*\" would let clients reach any host; list the hosts or *.domain patterns")
            } else if let pattern = HostPattern(text) {
                embedded.allowHosts.append(pattern)
            } else if HostPattern.isBareIPv6(text) {
                report(elementPath, "\(Self.quoted(text)) is an IPv6 address: write it in brackets, as in a URL (\"[\(text)]\")")
            } else {
                report(elementPath, "\(Self.quoted(text)) is not a host name, *.domain pattern or IP address (no port)")
            }
        }
        return embedded
    }

    private mutating func timeouts(_ value: ConfigValue?, at path: ConfigPath) -> ProxyConfig.Timeouts {
        var timeouts = ProxyConfig.Timeouts()
        let keys = ["connect_seconds", "origin_seconds", "header_seconds", "idle_seconds", "shutdown_seconds"]
        guard let members = object(value, at: path, keys: Set(keys)) else { return timeouts }
        let fields: [(String, WritableKeyPath<ProxyConfig.Timeouts, Double>)] = [
            ("connect_seconds", \.connect), ("origin_seconds", \.originTotal), ("header_seconds", \.header),
            ("idle_seconds", \.idle), ("shutdown_seconds", \.shutdownGrace),
        ]
        for (key, field) in fields {
            if let seconds = positiveNumber(members[key], at: path.key(key)) { timeouts[keyPath: field] = seconds }
        }
        return timeouts
    }

    private mutating func limits(_ value: ConfigValue?, at path: ConfigPath) -> ProxyConfig.Limits {
        var limits = ProxyConfig.Limits()
        let fields: [(String, WritableKeyPath<ProxyConfig.Limits, Int>)] = [
            ("max_playlist_bytes", \.maxPlaylistBytes), ("max_subtitle_bytes", \.maxSubtitleBytes),
            ("max_proxy_body_bytes", \.maxProxyBodyBytes), ("max_connections", \.maxConnections),
            ("max_subtitle_cues", \.maxSubtitleCues),
        ]
        guard let members = object(value, at: path, keys: Set(fields.map(\.0) + ["max_origin_exchanges"])) else { return limits }
        for (key, field) in fields {
            guard let number = integer(members[key], at: path.key(key)) else { continue }
            if let valid = Int(exactly: number), valid > 0 {
                limits[keyPath: field] = valid
            } else {
                report(path.key(key), "must be greater than 0, got \(number)")
            }
        }
        if let number = integer(members["max_origin_exchanges"], at: path.key("max_origin_exchanges")) {
            if let valid = Int(exactly: number), (1...1_000_000).contains(valid) {
                limits.maxOriginExchanges = valid
            } else {
                report(path.key("max_origin_exchanges"), "must be between 1 and 1000000, got \(number)")
            }
        }
        return limits
    }

    private mutating func cache(_ value: ConfigValue?, at path: ConfigPath, baseDirectory: String) -> ProxyConfig.CacheSettings {
        var cache = ProxyConfig.CacheSettings()
        let keys: Set<String> = ["master_ttl_seconds", "subtitle_ttl_seconds", "max_bytes", "disk_directory", "disk_max_bytes", "fallback_ttl_seconds"]
        guard let members = object(value, at: path, keys: keys) else { return cache }
        diskCache(members, at: path, baseDirectory: baseDirectory, into: &cache)
        let ttls = [("master_ttl_seconds", \ProxyConfig.CacheSettings.masterTTL), ("subtitle_ttl_seconds", \.subtitleTTL), ("fallback_ttl_seconds", \.fallbackTTL)]
        for (key, field) in ttls {
            guard let seconds = number(members[key], at: path.key(key)) else { continue }
            if seconds >= 0 { cache[keyPath: field] = seconds } else { report(path.key(key), "must be 0 or more, got \(Self.formatted(seconds))") }
        }
        if let bytes = integer(members["max_bytes"], at: path.key("max_bytes")) {
            if let valid = Int(exactly: bytes), valid >= 0 { cache.maxBytes = valid } else {
                report(path.key("max_bytes"), "must be 0 or more, got \(bytes)")
            }
        }
        return cache
    }

    private mutating func cors(_ value: ConfigValue?, at path: ConfigPath) -> ProxyConfig.CORS {
        var cors = ProxyConfig.CORS()
        guard let members = object(value, at: path, keys: ["allow_origins"]),
            let elements = array(members["allow_origins"], at: path.key("allow_origins"))
        else { return cors }
        cors.allowOrigins = []
        for (index, element) in elements.enumerated() {
            let elementPath = path.key("allow_origins").index(index)
            guard let origin = string(element, at: elementPath) else { continue }
            // Fetch §3.2.5: an Origin is a serialized scheme://host[:port], never with a path.
            if origin == "*" || Self.isSerializedOrigin(origin) {
                cors.allowOrigins.append(origin)
            } else {
                report(elementPath, "\(Self.quoted(origin)) is neither \"*\" nor http(s)://host[:port]")
            }
        }
        return cors
    }

    /// A number greater than zero; zero or less is reported.
    mutating func positiveNumber(_ value: ConfigValue?, at path: ConfigPath) -> Double? {
        guard let number = number(value, at: path) else { return nil }
        guard number > 0 else {
            report(path, "must be greater than 0, got \(Self.formatted(number))")
            return nil
        }
        return number
    }

    /// `disk_directory` (relative paths resolve against the config file's directory) and `disk_max_bytes`.
    private mutating func diskCache(
        _ members: [String: ConfigValue], at path: ConfigPath, baseDirectory: String, into cache: inout ProxyConfig.CacheSettings
    ) {
        if let directory = string(members["disk_directory"], at: path.key("disk_directory")) {
            if directory.isEmpty || directory.contains("\0") {
                report(path.key("disk_directory"), "must be a directory path")
            } else {
                cache.diskDirectory = directory.hasPrefix("/") ? directory : baseDirectory + "/" + directory
            }
        }
        if let bytes = integer(members["disk_max_bytes"], at: path.key("disk_max_bytes")) {
            if let valid = Int(exactly: bytes), valid > 0 { cache.diskMaxBytes = valid } else {
                report(path.key("disk_max_bytes"), "must be greater than 0, got \(bytes)")
            }
        }
    }
}
