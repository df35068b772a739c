/// Where each part of the listen address came from: flags win over the environment, which wins over
/// the config file, which wins over the built-in defaults. Start-up names the winner of each part, so
/// an image's `HLS_PROXY_PORT` silently beating a mounted file's `listen.port` cannot go unnoticed.
public struct ListenSources: Equatable, Sendable {
    public var host: SettingSource
    public var port: SettingSource
    public var threads: SettingSource
    /// The file's own values that a flag or the environment replaced, as `port 9000`.
    public var overridden: [String]

    /// Applies the options' host, port and threads over `config.listen` and records who set each.
    public init(applying options: CommandLineOptions, to config: inout ProxyConfig) {
        let file = config.listen
        let fromFile = config.listenKeysFromFile
        func source(_ key: String, _ given: SettingSource?) -> SettingSource {
            given ?? (fromFile.contains(key) ? .configFile : .builtInDefault)
        }
        host = source("host", options.host == nil ? nil : options.hostSource ?? .flag("--host"))
        port = source("port", options.port == nil ? nil : options.portSource ?? .flag("--port"))
        threads = source("threads", options.threads == nil ? nil : options.threadsSource ?? .flag("--threads"))
        overridden = []
        if let value = options.host {
            config.listen.host = value
            if fromFile.contains("host"), file.host != value { overridden.append("host \(file.host)") }
        }
        if let value = options.port {
            config.listen.port = value
            if fromFile.contains("port"), file.port != value { overridden.append("port \(file.port)") }
        }
        if let value = options.threads {
            config.listen.threads = value
            if fromFile.contains("threads"), file.threads != value { overridden.append("threads \(file.threads)") }
        }
    }

    /// `host from HLS_PROXY_HOST, port from config file`, then what was overridden and the threads
    /// when there are several: `; the config file's port 9000 overridden; 4 event loop threads from --threads`.
    public func summary(threadCount: Int) -> String {
        var text = "host from \(host), port from \(port)"
        if !overridden.isEmpty {
            text += "; the config file's \(overridden.joined(separator: " and ")) overridden"
        }
        if threadCount != 1 {
            text += "; \(threadCount) event loop thread\(threadCount == 1 ? "" : "s") from \(threads)"
        }
        return text
    }

    /// The same as log metadata.
    public var metadata: [(String, String)] {
        [("host_from", host.description), ("port_from", port.description), ("threads_from", threads.description)]
    }
}
