import HLS

extension MasterRelocation {
    /// A playlist passed through in `proxy` mode with every absolute http(s) URI that a mount or the
    /// allowlist covers turned into its proxy path, so segments, keys and maps keep coming through the
    /// proxy (and get their injected headers). Relative URIs already resolve against the proxy URL and
    /// are left alone; untouched lines stay byte-identical. Not a playlist: returned unchanged.
    func proxyingAbsoluteURIs(_ bytes: [UInt8], mount: Mount?) -> [UInt8] {
        guard var playlist = try? Playlist.parse(bytes) else { return bytes }
        var changed = false
        for index in playlist.lines.indices {
            let line = playlist.lines[index]
            switch line.kind {
            case .uri:
                guard let uri = line.uri, let path = proxyPath(forAbsolute: uri, mount: mount) else { continue }
                playlist.lines[index] = PlaylistLine(content: Array(path.utf8), ending: line.ending)
                changed = true
            case .tag:
                // RFC 8216 §4.3.2.4 (MAP), §4.3.2.5 (KEY), LL-HLS PART, PRELOAD-HINT, RENDITION-REPORT: URI attributes.
                guard let name = line.tagName, Self.uriTags.contains(name), var attributes = line.attributes,
                      attributes.problem == nil, let uri = attributes.value("URI"),
                      let path = proxyPath(forAbsolute: uri, mount: mount),
                      (try? attributes.set("URI", quoted: path)) != nil
                else { continue }
                playlist.lines[index].replaceAttributes(with: attributes)
                changed = true
            case .blank, .comment:
                continue
            }
        }
        return changed ? playlist.serialized() : bytes
    }

    /// The proxy path for an absolute http(s) URI, nil for relative ones and for URLs nothing covers.
    private func proxyPath(forAbsolute uri: String, mount: Mount?) -> String? {
        let lowered = uri.prefix(8).lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return nil }
        return proxyPath(for: uri, preferring: mount)
    }
}
