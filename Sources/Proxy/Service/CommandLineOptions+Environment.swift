/// Where one setting's value came from; the start-up line names it for the listen address.
public enum SettingSource: Equatable, Sendable, CustomStringConvertible {
    /// A command-line flag, by its long name (`--port`).
    case flag(String)
    /// An environment variable, by name (`HLS_PROXY_PORT`).
    case environment(String)
    /// The config file's own value.
    case configFile
    /// Nothing set it.
    case builtInDefault

    public var description: String {
        switch self {
        case .flag(let name), .environment(let name): name
        case .configFile: "config file"
        case .builtInDefault: "built-in default"
        }
    }
}

extension CommandLineOptions {
    /// Fills what the flags left unset from the environment (an empty value counts as unset).
    mutating func readEnvironment(_ environment: [String: String]) throws(UsageError) {
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        configPath = configPath ?? value("HLS_PROXY_CONFIG")
        if host == nil, let text = value("HLS_PROXY_HOST") {
            host = text
            hostSource = .environment("HLS_PROXY_HOST")
        }
        if port == nil {
            for name in ["HLS_PROXY_PORT", "PORT"] {
                guard let text = value(name) else { continue }
                if Self.isServiceLink(text) {
                    warnings.append(Self.serviceLinkWarning(name: name, value: text))
                    continue
                }
                port = try Self.parsePort(text, source: name)
                portSource = .environment(name)
                break
            }
        }
        if threads == nil, let text = value("HLS_PROXY_THREADS") {
            threads = try Self.parseThreads(text, source: "HLS_PROXY_THREADS")
            threadsSource = .environment("HLS_PROXY_THREADS")
        }
        if logLevel == nil, let text = value("HLS_PROXY_LOG_LEVEL") {
            logLevel = try Self.parseLevel(text, source: "HLS_PROXY_LOG_LEVEL")
        }
        if accessLog == nil, let text = value("HLS_PROXY_ACCESS_LOG") {
            accessLog = try Self.parseSwitch(text, source: "HLS_PROXY_ACCESS_LOG")
        }
    }

    /// Kubernetes service links: a Service named `hls-proxy` sets `HLS_PROXY_PORT=tcp://10.0.0.11:8080`
    /// (and `..._PORT_8080_TCP` and friends) in every pod of its namespace, as docker links did. Such a
    /// value names another Service's address, never our port, so it is ignored rather than refused.
    static func isServiceLink(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return ["tcp://", "udp://", "sctp://"].contains { lowered.hasPrefix($0) }
    }

    private static func serviceLinkWarning(name: String, value: String) -> String {
        let service = String(name.dropLast("_PORT".count).lowercased().map { $0 == "_" ? "-" : $0 })
        let origin = service.isEmpty ? "a service link" : "a Kubernetes service link (a Service named \(service) sets it)"
        return "ignoring \(name)=\"\(Sanitized.text(value))\": it is \(origin), not a port number; "
            + "set enableServiceLinks: false in the pod spec"
    }
}
