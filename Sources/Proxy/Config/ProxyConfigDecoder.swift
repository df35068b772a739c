import Foundation

/// The whole file: the top-level keys, each section handed to its decoder, problems reported to the reader.
struct ProxyConfigDecoder {
    /// What relative paths (directory origins, cache directory, CA file) resolve against: the config file's directory.
    let baseDirectory: String

    /// The whole config; values that fail validation are reported and replaced by their defaults.
    func proxyConfig(_ document: ConfigValue, in reader: inout ConfigReader) -> ProxyConfig {
        var config = ProxyConfig()
        if case .object = document {} else {
            reader.report(.root, "expected a JSON object, got \(document.summary)")
            return config
        }
        let root = ConfigPath.root
        let keys: Set<String> = [
            "listen", "mounts", "embedded", "subtitles", "timeouts", "limits", "cache", "cors", "log_level", "access_log",
            "origin_ca_file", "signing",
        ]
        guard let members = reader.object(document, at: root, keys: keys) else { return config }
        config.listen = ListenDecoder.listen(members["listen"], at: root.key("listen"), in: &reader)
        if case .object(let listen)? = members["listen"] { config.listenKeysFromFile = Set(listen.filter { $0.value != .null }.keys) }
        config.mounts = MountDecoder(baseDirectory: baseDirectory).mounts(members["mounts"], at: root.key("mounts"), in: &reader)
        config.embedded = EmbeddedOriginsDecoder.embedded(members["embedded"], at: root.key("embedded"), in: &reader)
        config.subtitleSets = SubtitleSetDecoder.subtitleSets(members["subtitles"], at: root.key("subtitles"), in: &reader)
        config.timeouts = TimeoutsDecoder.timeouts(members["timeouts"], at: root.key("timeouts"), in: &reader)
        config.limits = LimitsDecoder.limits(members["limits"], at: root.key("limits"), in: &reader)
        config.cache = CacheDecoder(baseDirectory: baseDirectory).cache(members["cache"], at: root.key("cache"), in: &reader)
        config.cors = CORSDecoder.cors(members["cors"], at: root.key("cors"), in: &reader)
        config.logLevel = reader.choice(members["log_level"], at: root.key("log_level"))
        if let accessLog = reader.bool(members["access_log"], at: root.key("access_log")) { config.accessLog = accessLog }
        config.signing = SigningDecoder.signing(members["signing"], at: root.key("signing"), in: &reader)
        config.originCAFile = caFile(members["origin_ca_file"], at: root.key("origin_ca_file"), in: &reader)
        return config
    }

    /// `origin_ca_file`: a readable file, relative paths against the config file's directory. Read
    /// here so a typo stops the start instead of failing every https fetch later.
    private func caFile(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> String? {
        guard let given = reader.string(value, at: path) else { return nil }
        guard !given.isEmpty, !given.contains("\0") else {
            reader.report(path, "must be a file path")
            return nil
        }
        let file = given.hasPrefix("/") ? given : baseDirectory + "/" + given
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue,
              FileManager.default.isReadableFile(atPath: file) else {
            reader.report(path, "\(ConfigReader.quoted(file)) is not a readable file")
            return nil
        }
        return file
    }
}
