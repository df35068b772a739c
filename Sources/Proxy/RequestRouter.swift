import HTTPServer

/// Maps a request path to what the proxy does with it (SPEC "Request URLs").
struct RequestRouter: Sendable {
    /// What a request is.
    enum Route: Sendable {
        case health
        case ready
        case metrics
        case subtitle(SubtitleURL)
        case origin(OriginTarget)
    }

    let mounts: [String: Mount]
    let allowHosts: [HostPattern]

    init(config: ProxyConfig) {
        var byName: [String: Mount] = [:]
        for mount in config.mounts { byName[mount.name] = mount }
        mounts = byName
        allowHosts = config.embedded.allowHosts
    }

    /// Routes a request target given as raw (still percent-encoded) path and query.
    /// Only the first segment is split off: every segment request passes here, so the rest of the path
    /// is carried as one raw slice.
    func route(rawPath: String, query: String?) throws(ProxyError) -> Route {
        let afterSlash = rawPath.utf8.first == UInt8(ascii: "/") ? rawPath.dropFirst() : rawPath[...]
        // Searched as bytes (a Character search runs grapheme breaking on every step), over contiguous
        // storage when there is some.
        let utf8 = afterSlash.utf8
        let offset = utf8.withContiguousStorageIfAvailable { $0.firstIndex(of: UInt8(ascii: "/")) ?? $0.count }
        let firstEnd = offset.map { utf8.index(utf8.startIndex, offsetBy: $0) }
            ?? utf8.firstIndex(of: UInt8(ascii: "/")) ?? afterSlash.endIndex
        let first = afterSlash[..<firstEnd]
        let rest: Substring? = firstEnd < afterSlash.endIndex ? afterSlash[afterSlash.index(after: firstEnd)...] : nil
        guard !first.isEmpty else {
            throw .notFound("no mount given: use /{mount}/{path} or /{http|https}/{host}/{path}")
        }
        switch first {
        case "healthz" where rest == nil: return .health
        case "readyz" where rest == nil: return .ready
        case "metrics" where rest == nil: return .metrics
        case Substring(SubtitleURL.reservedPrefix):
            let segments = rest?.split(separator: "/", omittingEmptySubsequences: false) ?? []
            guard let url = SubtitleURL(segmentsAfterPrefix: segments[...]) else {
                throw .notFound("unknown synthesized resource")
            }
            return .subtitle(url)
        case "http", "https":
            if mounts[String(first)] == nil {
                let segments = rest?.split(separator: "/", omittingEmptySubsequences: false) ?? []
                return .origin(try embeddedTarget(scheme: String(first), segments: segments[...], query: query))
            }
        default:
            break
        }
        let name = try PathDecoding.decodeSegment(first)
        guard let mount = mounts[name] else { throw .notFound("no mount named \"\(Sanitized.text(name))\"") }
        // The raw path is `/{mount}/{rest}` as sent; without escapes it is also the decoded path.
        let unescaped = !rawPath.containsUTF8(UInt8(ascii: "%")) && rawPath.utf8.first == UInt8(ascii: "/")
        return .origin(try mountTarget(mount, rawRest: rest ?? "", query: query, rawPath: unescaped && rest != nil ? rawPath : nil))
    }

    /// The origin target of a mount-form request; `rawRest` is the raw path after `/{mount}/`.
    /// `rawPath`, when given, is the whole request path, known to be `/{mount}/{rawRest}` with no escapes:
    /// it then serves as proxy path and target without building them again.
    func mountTarget(_ mount: Mount, rawRest: Substring, query: String?, rawPath: String? = nil) throws(ProxyError) -> OriginTarget {
        var proxyTarget = rawPath ?? "/" + mount.name + "/" + rawRest
        if let query { proxyTarget += "?" + query }
        let decodedPath: String
        if let rawPath {
            decodedPath = rawPath
        } else {
            decodedPath = "/" + mount.name + "/" + (try PathDecoding.decodePath(rawRest))
        }
        switch mount.origin {
        case .http(let baseURL):
            try Self.refuseDotDotSegments(rawRest)
            var url = baseURL
            url.reserveCapacity(baseURL.utf8.count + rawRest.utf8.count + (query?.utf8.count ?? -1) + 2)
            url += "/"
            url += rawRest
            if let query { url += "?" + query }
            return OriginTarget(mount: mount, url: url, proxyPath: decodedPath, proxyTarget: proxyTarget)
        case .directory(let root):
            let path = try FileConfinement.confinedPath(root: root, rawRelativePath: String(rawRest))
            return OriginTarget(mount: mount, url: FileConfinement.fileURL(path: path), proxyPath: decodedPath, proxyTarget: proxyTarget)
        }
    }

    /// RFC 3986 §5.2.4: an origin removes `..` segments, so `/mount/../x` would reach `x` outside the
    /// mount's base path. Refused in every spelling: raw, percent-encoded, or behind an encoded `/` or `\`
    /// (servers that decode before normalizing treat those as separators).
    static func refuseDotDotSegments(_ rawRest: Substring) throws(ProxyError) {
        // Two dots, raw or escaped (`%2e`), are needed; most paths have neither and skip the decoding.
        // A plain byte loop: this runs for every request on a mount, and the generic
        // `firstRange(of:)` cost more than everything else in routing (runtime generic metadata).
        func isSuspicious<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
            var previousWasDot = false
            for byte in bytes {
                if byte == UInt8(ascii: "%") || (byte == UInt8(ascii: ".") && previousWasDot) { return true }
                previousWasDot = byte == UInt8(ascii: ".")
            }
            return false
        }
        guard rawRest.utf8.withContiguousStorageIfAvailable(isSuspicious) ?? isSuspicious(rawRest.utf8) else { return }
        for rawSegment in rawRest.split(separator: "/", omittingEmptySubsequences: false) {
            let segment = try PathDecoding.decodeSegment(rawSegment)
            if segment.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains("..") || segment == ".." {
                throw .forbidden("path leaves the mount")
            }
        }
    }

    /// The origin target of an embedded-form request `/{scheme}/{host[:port]}/{path}`.
    func embeddedTarget(scheme: String, segments: ArraySlice<Substring>, query: String?) throws(ProxyError) -> OriginTarget {
        guard !allowHosts.isEmpty else {
            throw .notFound("embedded origin URLs are disabled (no embedded.allow_hosts configured)")
        }
        guard let authority = segments.first, !authority.isEmpty else {
            throw .badRequest("embedded URL needs /\(scheme)/{host}/{path}")
        }
        guard let host = EmbeddedAuthority.host(of: authority) else {
            throw .badRequest("embedded URL has a malformed host")
        }
        guard allowHosts.contains(where: { $0.matches(host) }) else {
            throw .forbidden("host \(host) is not on the embedded allowlist")
        }
        let rawRest = segments.dropFirst().joined(separator: "/")
        let suffix = query.map { "?" + $0 } ?? ""
        let url = "\(scheme)://\(authority.lowercased())/\(rawRest)\(suffix)"
        let decodedPath = "/\(scheme)/\(authority.lowercased())/" + (try PathDecoding.decodePath(rawRest))
        let proxyTarget = "/\(scheme)/\(authority)/\(rawRest)\(suffix)"
        return OriginTarget(mount: nil, url: url, proxyPath: decodedPath, proxyTarget: proxyTarget)
    }
}

/// The `host[:port]` segment of an embedded URL, checked strictly: a letter-digit-dot-hyphen name or an
/// IPv4 address, optional decimal port 1-65535. Anything else (userinfo, percent signs) is refused.
enum EmbeddedAuthority {
    static func host(of authority: Substring) -> String? {
        var host = authority
        if let colon = authority.lastIndex(of: ":") {
            let port = authority[authority.index(after: colon)...]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber),
                  let value = Int(port), value >= 1, value <= 65535
            else { return nil }
            host = authority[..<colon]
        }
        guard !host.isEmpty, host.count <= 253,
              host.utf8.allSatisfy({ byte in
                  (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                      || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
              }),
              host.first != ".", host.first != "-"
        else { return nil }
        return host.lowercased()
    }
}

/// Makes text from a client safe to echo in a one-line error body.
enum Sanitized {
    static func text<S: StringProtocol>(_ value: S, limit: Int = 80) -> String {
        let cleaned = value.unicodeScalars.prefix(limit).map { scalar -> Character in
            scalar.value < 0x20 || scalar.value == 0x7F ? "?" : Character(scalar)
        }
        return String(cleaned)
    }
}
