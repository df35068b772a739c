import HLS

extension MasterRelocation {
    /// A playlist answered at another URL than its own proxy target (a signed playback URL) with its
    /// relative URIs made path-absolute under `proxyTarget`, the master's own proxy path: RFC 8216 §4.1
    /// resolves them against the URL the player fetched, which would put variants and segments under the
    /// token. `v0/index.m3u8` under `/sample/master.m3u8` becomes `/sample/v0/index.m3u8`, so they follow
    /// the usual routes. Path-absolute and absolute URIs (already mapped by `relocate`) stay as they are;
    /// not a playlist: unchanged.
    static func anchoringRelativeURIs(_ bytes: [UInt8], at proxyTarget: String) -> [UInt8] {
        guard var playlist = try? Playlist.parse(bytes) else { return bytes }
        // Only the path matters: resolved against a placeholder origin, which is then cut off again.
        let origin = "http://proxy.invalid"
        let base = origin + proxyTarget
        func anchored(_ uri: String) -> String? {
            guard URLReference.form(of: uri) == .relative, !uri.isEmpty,
                  let resolved = URLReference.resolve(uri, against: base), resolved.hasPrefix(origin + "/")
            else { return nil }
            return String(resolved.dropFirst(origin.count))
        }
        var changed = false
        for index in playlist.lines.indices {
            let line = playlist.lines[index]
            switch line.kind {
            case .uri:
                guard let uri = line.uri, let mapped = anchored(uri) else { continue }
                playlist.lines[index] = PlaylistLine(content: Array(mapped.utf8), ending: line.ending)
                changed = true
            case .tag:
                guard let name = line.tagName, uriTags.contains(name), var attributes = line.attributes,
                      attributes.problem == nil, let uri = attributes.value("URI"), let mapped = anchored(uri),
                      (try? attributes.set("URI", quoted: mapped)) != nil
                else { continue }
                playlist.lines[index].replaceAttributes(with: attributes)
                changed = true
            case .blank, .comment:
                continue
            }
        }
        return changed ? playlist.serialized() : bytes
    }
}
