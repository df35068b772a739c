import Foundation

/// The `listen` section: host, port and thread count.
enum ListenDecoder {
    static func listen(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> ProxyConfig.Listen {
        var listen = ProxyConfig.Listen()
        guard let members = reader.object(value, at: path, keys: ["host", "port", "threads"]) else { return listen }
        if let host = reader.string(members["host"], at: path.key("host")) {
            if host.isEmpty || host.unicodeScalars.contains(where: { $0 == " " || $0 == "\t" || $0 == "/" }) {
                reader.report(path.key("host"), "\(ConfigReader.quoted(host)) is not a host name or address")
            } else {
                listen.host = host
            }
        }
        if let port = reader.integer(members["port"], at: path.key("port")) {
            if let valid = Int(exactly: port), (0...65535).contains(valid) {
                listen.port = valid
            } else {
                reader.report(path.key("port"), "port \(port) is outside 0...65535")
            }
        }
        if let threads = reader.integer(members["threads"], at: path.key("threads")) {
            if let valid = Int(exactly: threads), (1...ProxyConfig.Listen.maxThreads).contains(valid) {
                listen.threads = valid
            } else {
                reader.report(path.key("threads"), "threads \(threads) is outside 1...\(ProxyConfig.Listen.maxThreads)")
            }
        }
        return listen
    }
}
