import HTTPServer

extension ProxyService {
    /// Problems worth a warning at start-up that do not stop it: https origins or subtitle sources
    /// configured where OpenSSL 3 cannot be loaded (those fetches would all fail with 502). Loads
    /// libssl only when the config names an https URL.
    public var startupWarnings: [String] {
        guard config.namesHTTPSURL, let reason = TLSContext.unavailableReason() else { return [] }
        return ["https origins configured, but \(reason)"]
    }
}

extension ProxyConfig {
    /// Whether a mount's origin or a subtitle source is an https URL.
    var namesHTTPSURL: Bool {
        let mountsHTTPS = mounts.contains { mount in
            if case .http(let url) = mount.origin { return url.lowercased().hasPrefix("https:") }
            return false
        }
        return mountsHTTPS || subtitleSets.contains { set in set.tracks.contains { $0.source.lowercased().hasPrefix("https:") } }
    }
}
