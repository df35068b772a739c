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
