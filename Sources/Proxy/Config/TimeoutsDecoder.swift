import Foundation

/// The `timeouts` section: positive seconds for each wait.
enum TimeoutsDecoder {
    static func timeouts(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> ProxyConfig.Timeouts {
        var timeouts = ProxyConfig.Timeouts()
        let keys = ["connect_seconds", "origin_seconds", "header_seconds", "idle_seconds", "shutdown_seconds", "tracks_seconds"]
        guard let members = reader.object(value, at: path, keys: Set(keys)) else { return timeouts }
        let fields: [(String, WritableKeyPath<ProxyConfig.Timeouts, Double>)] = [
            ("connect_seconds", \.connect), ("origin_seconds", \.originTotal), ("header_seconds", \.header),
            ("idle_seconds", \.idle), ("shutdown_seconds", \.shutdownGrace), ("tracks_seconds", \.tracks),
        ]
        for (key, field) in fields {
            if let seconds = reader.positiveNumber(members[key], at: path.key(key)) { timeouts[keyPath: field] = seconds }
        }
        return timeouts
    }
}
