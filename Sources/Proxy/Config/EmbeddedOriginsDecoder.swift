import Foundation

/// The `embedded` section: which hosts embedded origin URLs may name.
enum EmbeddedOriginsDecoder {
    static func embedded(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> ProxyConfig.EmbeddedOrigins {
        var embedded = ProxyConfig.EmbeddedOrigins()
        guard let members = reader.object(value, at: path, keys: ["allow_hosts", "allow_private_networks"]) else { return embedded }
        if let allow = members["allow_private_networks"], let flag = reader.bool(allow, at: path.key("allow_private_networks")) {
            embedded.allowPrivateNetworks = flag
        }
        embedded.allowHosts = hostPatterns(members["allow_hosts"], at: path.key("allow_hosts"), in: &reader)
        return embedded
    }

    /// Host patterns as `allow_hosts` takes them (also a subtitle set's `source_hosts`); bad ones reported.
    static func hostPatterns(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> [HostPattern] {
        guard let elements = reader.array(value, at: path) else { return [] }
        var patterns: [HostPattern] = []
        for (index, element) in elements.enumerated() {
            let elementPath = path.index(index)
            guard let text = reader.string(element, at: elementPath) else { continue }
            if text == "*" {
                // An allow-all list would make the proxy an open relay to any host, intranet included.
                reader.report(elementPath, "\"*\" would let clients reach any host; list the hosts or *.domain patterns")
            } else if let pattern = HostPattern(text) {
                patterns.append(pattern)
            } else if HostPattern.isBareIPv6(text) {
                reader.report(elementPath, "\(ConfigReader.quoted(text)) is an IPv6 address: write it in brackets, as in a URL (\"[\(text)]\")")
            } else {
                reader.report(elementPath, "\(ConfigReader.quoted(text)) is not a host name, *.domain pattern or IP address (no port)")
            }
        }
        return patterns
    }
}
