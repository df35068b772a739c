import HLS

/// Points a playlist's URIs at what the player can reach through the proxy.
///
/// RFC 8216 §4.1 and RFC 3986 §5.1: URIs resolve against the URL the playlist was finally fetched from,
/// but the player only knows the proxy URL it asked for. So:
/// - relative URIs stay as written unless the origin redirected the playlist to another directory; then
///   each becomes the proxy path of its real target (or the absolute origin URL when nothing covers it);
/// - path-absolute (`/v0/index.m3u8`) and scheme-relative (`//host/path`) URIs, which would otherwise hit
///   the proxy's root, are resolved against the final URL and mapped the same way: onto the mount whose
///   origin covers the target (the request's own mount first), else the embedded form when the host is
///   allowlisted, else the absolute origin URL; on a directory mount `/x` names the mount's root;
/// - absolute http(s) URIs in a master are mapped only onto a mount whose origin covers them (or, for a
///   master reached in embedded form, onto the embedded form of the same origin); the rest are left as
///   the origin wrote them. Pass-through playlists also use the embedded form for allowlisted hosts.
/// Query strings are kept; untouched lines stay byte-identical.
struct MasterRelocation {
    /// The tags whose URI attribute a player resolves (RFC 8216 §4.3.4, §4.3.2).
    static let uriTags: Set<String> = [
        "EXT-X-MEDIA", "EXT-X-I-FRAME-STREAM-INF", "EXT-X-SESSION-DATA", "EXT-X-SESSION-KEY",
        "EXT-X-CONTENT-STEERING", "EXT-X-KEY", "EXT-X-MAP", "EXT-X-PRELOAD-HINT", "EXT-X-RENDITION-REPORT",
        "EXT-X-PART",
    ]

    /// What absolute http(s) URIs are mapped onto.
    enum AbsolutePolicy {
        /// Left as written (a media playlist on a master path: it worked before and still does).
        case untouched
        /// A master: a covering mount, or the embedded form of the master's own origin when the master
        /// was reached in embedded form.
        case master
        /// A pass-through playlist in `proxy` mode: a covering mount, else the embedded form when allowlisted.
        case proxied
    }

    let router: RequestRouter
    let mounts: [Mount]

    /// A master (or a body fetched on a master path) with its URIs pointed at the proxy; `mount` is the
    /// mount the player asked through (nil: the embedded form). Not a playlist: returned unchanged.
    func relocate(_ bytes: [UInt8], requestedURL: String, finalURL: String, mount: Mount? = nil) -> [UInt8] {
        guard let playlist = try? Playlist.parse(bytes) else { return bytes }
        let policy: AbsolutePolicy = playlist.isMaster ? .master : .untouched
        return rewriting(playlist, original: bytes, requestedURL: requestedURL, finalURL: finalURL, mount: mount, policy: policy)
    }

    /// Every URI line and URI attribute of `playlist` passed through `reference(_:...)`.
    func rewriting(
        _ parsed: Playlist, original: [UInt8], requestedURL: String, finalURL: String, mount: Mount?, policy: AbsolutePolicy
    ) -> [UInt8] {
        // No redirect to another directory (the usual case): relative references resolve as before.
        let moved = requestedURL != finalURL && directory(of: requestedURL) != directory(of: finalURL)
        return Self.mappingURIs(of: parsed, original: original) { uri in
            reference(uri, finalURL: finalURL, moved: moved, mount: mount, policy: policy)
        }
    }

    /// Every URI line and URI attribute (of `uriTags`) of `playlist` replaced by what `map` gives (nil: kept
    /// as written); `original` when nothing changed, so an untouched playlist keeps its bytes exactly.
    static func mappingURIs(of parsed: Playlist, original: [UInt8], _ map: (String) -> String?) -> [UInt8] {
        var playlist = parsed
        var changed = false
        for index in playlist.lines.indices {
            let line = playlist.lines[index]
            switch line.kind {
            case .uri:
                guard let uri = line.uri, let mapped = map(uri) else { continue }
                playlist.lines[index] = PlaylistLine(content: Array(mapped.utf8), ending: line.ending)
                changed = true
            case .tag:
                guard let name = line.tagName, uriTags.contains(name), var attributes = line.attributes,
                      attributes.problem == nil, let uri = attributes.value("URI"), let mapped = map(uri),
                      (try? attributes.set("URI", quoted: mapped)) != nil
                else { continue }
                playlist.lines[index].replaceAttributes(with: attributes)
                changed = true
            case .blank, .comment:
                continue
            }
        }
        return changed ? playlist.serialized() : original
    }

    /// What `uri` becomes, or nil when it stays as written.
    func reference(_ uri: String, finalURL: String, moved: Bool, mount: Mount?, policy: AbsolutePolicy) -> String? {
        switch URLReference.form(of: uri) {
        case .relative:
            return moved ? proxyReference(uri, finalURL: finalURL) : nil
        case .pathAbsolute, .schemeRelative:
            if case .directory? = mount?.origin {
                // A directory has no host: `/x` names the mount's root, as a track's `source` does there.
                guard let mount, URLReference.form(of: uri) == .pathAbsolute else { return nil }
                return "/" + mount.name + uri
            }
            // `//` alone, or a host Foundation cannot read: nothing a player could fetch, left as written.
            guard let target = URLReference.resolve(uri, against: finalURL), URLReference.form(of: target) == .absoluteHTTP,
                  URLReference.host(of: target)?.isEmpty == false
            else { return nil }
            let mapped = proxyPath(for: target, preferring: mount) ?? target
            return mapped == uri ? nil : mapped
        case .absoluteHTTP:
            // Dot segments removed first, so `http://o/vod/../x` is not taken for something under `/vod`.
            guard let target = URLReference.resolve(uri, against: finalURL) else { return nil }
            switch policy {
            case .untouched:
                return nil
            case .proxied:
                return proxyPath(for: target, preferring: mount)
            case .master:
                if let path = mountPath(for: target, preferring: mount) { return path }
                guard mount == nil, let here = URLReference.origin(of: finalURL), URLReference.origin(of: target) == here
                else { return nil }
                return proxyPath(for: target)
            }
        case .otherScheme:
            return nil
        }
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
        if let path = mountPath(for: target, preferring: preferred) { return path }
        if let host = URLReference.host(of: target), router.allowHosts.contains(where: { $0.matches(host) }),
           let schemeEnd = target.range(of: "://") {
            return "/" + target[..<schemeEnd.lowerBound].lowercased() + "/" + target[schemeEnd.upperBound...]
        }
        return nil
    }

    /// The mount path (`/NAME` + the rest) of an absolute URL under a mount's origin, nil when none covers it.
    func mountPath(for target: String, preferring preferred: Mount? = nil) -> String? {
        let normalized = URLReference.lowercasingSchemeAndHost(target)
        let ordered = preferred.map { [$0] + mounts } ?? mounts
        for mount in ordered {
            // By bytes: String's hasPrefix compares canonically equivalent characters, not spellings.
            guard case .http(let base) = mount.origin, normalized.utf8.starts(with: base.utf8) else { continue }
            let rest = normalized.utf8.dropFirst(base.utf8.count)
            guard rest.first == UInt8(ascii: "/") else { continue }
            return "/" + mount.name + String(decoding: rest, as: UTF8.self)
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
