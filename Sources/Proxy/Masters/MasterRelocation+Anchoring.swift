import HLS

extension MasterRelocation {
    /// A playlist answered at another URL than its own proxy target (a signed playback URL) with its
    /// relative URIs made path-absolute under `proxyTarget`, the master's own proxy path: RFC 8216 §4.1
    /// resolves them against the URL the player fetched, which would put variants and segments under the
    /// token. `v0/index.m3u8` under `/sample/master.m3u8` becomes `/sample/v0/index.m3u8`, so they follow
    /// the usual routes. Path-absolute and absolute URIs (already mapped by `relocate`) stay as they are;
    /// not a playlist: unchanged.
    static func anchoringRelativeURIs(_ bytes: [UInt8], at proxyTarget: String) -> [UInt8] {
        guard let playlist = try? Playlist.parse(bytes) else { return bytes }
        // Only the path matters: resolved against a placeholder origin, which is then cut off again.
        let origin = "http://proxy.invalid"
        let base = origin + proxyTarget
        func anchored(_ uri: String) -> String? {
            guard URLReference.form(of: uri) == .relative, !uri.isEmpty,
                  let resolved = URLReference.resolve(uri, against: base), resolved.hasPrefix(origin + "/")
            else { return nil }
            return String(resolved.dropFirst(origin.count))
        }
        return mappingURIs(of: playlist, original: bytes, anchored)
    }
}
