import HTTPClient
import HTTPServer

extension ProxyService {
    /// Problems worth a warning at start-up that do not stop it: https origins or subtitle sources
    /// configured where OpenSSL 3 cannot be loaded (those fetches would all fail with 502). Loads
    /// libssl only when the config names an https URL.
    ///
    /// A config that mounts nothing and allows no embedded origin is warned about too: every request
    /// would answer 404, which otherwise looks like a broken origin rather than a missing config.
    public var startupWarnings: [String] {
        var warnings: [String] = []
        if config.mounts.isEmpty && config.embedded.allowHosts.isEmpty {
            warnings.append("nothing is mounted (no mounts, no embedded.allow_hosts): every request but /healthz, /readyz and /metrics answers 404")
        }
        if config.namesHTTPSURL, let reason = TLSContext.unavailableReason() {
            warnings.append("https origins configured, but \(reason)")
        }
        for set in config.subtitleSets where set.wrapMediaPlaylists {
            for pattern in set.masters where pattern.pattern.contains("*") {
                warnings.append(
                    "subtitles \"\(set.name)\" wraps media playlists on the pattern \"\(pattern.pattern)\": the variant playlists of a master it "
                        + "also matches would be served as masters (a master inside a master); name the media playlists to wrap")
            }
        }
        warnings += config.signing.publishedExampleKeyWarnings
        return warnings
    }
}
