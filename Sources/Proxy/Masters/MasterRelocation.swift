import HLS

/// Keeps a redirected master's relative URIs pointing where the origin meant them to.
///
/// RFC 8216 §4.1 and RFC 3986 §5.1: relative URIs resolve against the URL the playlist was finally
/// fetched from. The player only knows the proxy URL it asked for, so when the origin redirected the
/// master to another directory, each relative URI is rewritten to the proxy path of its real target (or
/// to the absolute origin URL when no mount or allowlisted host covers it).
struct MasterRelocation {
    /// The tags whose URI attribute a player resolves (RFC 8216 §4.3.4, §4.3.2).
    static let uriTags: Set<String> = [
        "EXT-X-MEDIA", "EXT-X-I-FRAME-STREAM-INF", "EXT-X-SESSION-DATA", "EXT-X-SESSION-KEY",
        "EXT-X-CONTENT-STEERING", "EXT-X-KEY", "EXT-X-MAP", "EXT-X-PRELOAD-HINT", "EXT-X-RENDITION-REPORT",
        "EXT-X-PART",
    ]

    let router: RequestRouter
    let mounts: [Mount]

    /// The playlist with relative URIs re-based from `requestedURL` to `finalURL`; unchanged when both
    /// resolve relative references the same way, or when the body is not a playlist.
    func relocate(_ bytes: [UInt8], requestedURL: String, finalURL: String) -> [UInt8] {
        // No redirect (the usual case): nothing moves.
        guard requestedURL != finalURL, directory(of: requestedURL) != directory(of: finalURL),
              var playlist = try? Playlist.parse(bytes) else { return bytes }
        for index in playlist.lines.indices {
            let line = playlist.lines[index]
            switch line.kind {
            case .uri:
                guard let uri = line.uri, let moved = proxyReference(uri, finalURL: finalURL) else { continue }
                playlist.lines[index] = PlaylistLine(content: Array(moved.utf8), ending: line.ending)
            case .tag:
                guard let name = line.tagName, Self.uriTags.contains(name), var attributes = line.attributes,
                      attributes.problem == nil, let uri = attributes.value("URI"),
                      let moved = proxyReference(uri, finalURL: finalURL),
                      (try? attributes.set("URI", quoted: moved)) != nil
                else { continue }
                playlist.lines[index].replaceAttributes(with: attributes)
            case .blank, .comment:
                continue
            }
        }
        return playlist.serialized()
    }

    /// For a relative reference: its target as a proxy path when a mount or the allowlist covers it,
    /// else as an absolute URL. Nil for references that are already absolute (they need no change).
    func proxyReference(_ reference: String, finalURL: String) -> String? {
        guard !Self.isAbsolute(reference), !reference.hasPrefix("data:"),
              let target = URLReference.resolve(reference, against: finalURL)
        else { return nil }
        return proxyPath(for: target) ?? target
    }

    /// An absolute origin URL as a proxy path: under the first mount whose base covers it (`preferring`
    /// one first), else in embedded form when its host is allowlisted; nil when neither covers it.
    func proxyPath(for target: String, preferring preferred: Mount? = nil) -> String? {
        let ordered = preferred.map { [$0] + mounts } ?? mounts
        for mount in ordered {
            guard case .http(let base) = mount.origin, target.hasPrefix(base + "/") else { continue }
            return "/" + mount.name + target.dropFirst(base.count)
        }
        if let host = URLReference.host(of: target), router.allowHosts.contains(where: { $0.matches(host) }),
           let schemeEnd = target.range(of: "://") {
            return "/" + target[..<schemeEnd.lowerBound] + "/" + target[schemeEnd.upperBound...]
        }
        return nil
    }

    static func isAbsolute(_ reference: String) -> Bool {
        guard let colon = reference.firstIndex(of: ":") else { return false }
        let scheme = reference[..<colon]
        return !scheme.isEmpty && !scheme.contains("/") && !scheme.contains("?") && !scheme.contains("#")
    }

    /// The URL up to its last "/" before any query: what relative references resolve against.
    private func directory(of url: String) -> Substring {
        // By bytes: "?", "#" and "/" are ASCII, and a Character search runs grapheme breaking per step.
        let utf8 = url.utf8
        let end = utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? utf8.endIndex
        guard let slash = utf8[..<end].lastIndex(of: UInt8(ascii: "/")) else { return url[..<end] }
        return url[...slash]
    }
}
