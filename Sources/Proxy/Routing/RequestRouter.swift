import HTTPClient
import HTTPServer
import HTTPWire

/// Maps a request path to what the proxy does with it (SPEC "Request URLs").
struct RequestRouter: Sendable {
    /// What a request is.
    enum Route: Sendable {
        case health
        case ready
        case metrics
        case subtitle(SubtitleURL)
        /// A signed playback URL (`/_hls-proxy/v1/signed/{token}/...`), not yet verified.
        case signed(SignedURL)
        case origin(OriginTarget)
    }

    let mounts: [String: RoutedMount]
    /// The mounts with their names as bytes, for matching a raw first segment without building a String.
    let mountsByBytes: [(name: [UInt8], mount: RoutedMount)]
    let allowHosts: [HostPattern]
    /// The masters of subtitle URLs, each routed once (see `routeMaster`).
    let masterRoutes = MasterTargetRoutes()
    /// Subtitle URLs by path, each read once (see `SubtitleURLs`).
    let subtitleURLs = SubtitleURLs()

    init(config: ProxyConfig) {
        let routed = config.mounts.map(RoutedMount.init)
        var byName: [String: RoutedMount] = [:]
        for entry in routed { byName[entry.mount.name] = entry }
        mounts = byName
        mountsByBytes = routed.map { (Array($0.mount.name.utf8), $0) }
        allowHosts = config.embedded.allowHosts
    }

    /// The first path segment: what it names, where it ends, and whether the path has escapes.
    private struct FirstSegment {
        enum Kind { case health, ready, metrics, subtitle, embedded, mount(Int), other }
        var kind: Kind
        /// Bytes before the first segment (0 or 1, the leading "/").
        var start: Int
        /// The first segment's length in bytes.
        var length: Int
        /// Whether a "/" follows the first segment.
        var hasRest: Bool
        /// Whether the path contains "%" anywhere.
        var hasEscapes: Bool
        /// Whether the path has two dots with nothing but spaces or controls between them; with `hasEscapes`
        /// and `hasNonASCII` false too, no segment can be read as `..`.
        var hasDotDot: Bool
        /// Whether the path has a byte past ASCII (a compatibility dot such as U+FF0E may be among them).
        var hasNonASCII: Bool
    }

    /// Reads the first segment from raw bytes: every request passes here, so nothing is allocated and
    /// names are compared as bytes (a Character comparison runs grapheme breaking on every step).
    private func firstSegment(_ bytes: Span<UInt8>) -> FirstSegment {
        let start = !bytes.isEmpty && bytes[0] == UInt8(ascii: "/") ? 1 : 0
        let end = ByteSearch.firstIndex(of: UInt8(ascii: "/"), in: bytes, from: start) ?? bytes.count
        // One pass for all three: no "%", no ".." and nothing past ASCII means no segment can climb out
        // of a mount, in any origin's reading (see `DotSegment`).
        var hasEscapes = false, hasDotDot = false, hasNonASCII = false
        Self.forEachSignificantByte(bytes) { byte, afterDot in
            if byte == UInt8(ascii: "%") { hasEscapes = true }
            if byte >= 0x80 { hasNonASCII = true }
            if byte == UInt8(ascii: ".") && afterDot { hasDotDot = true }
            return true
        }
        let name = bytes.extracting(start..<end)
        let hasRest = end < bytes.count
        var kind = FirstSegment.Kind.other
        if !hasRest && Self.hasSameBytes(name, Self.healthName) {
            kind = .health
        } else if !hasRest && Self.hasSameBytes(name, Self.readyName) {
            kind = .ready
        } else if !hasRest && Self.hasSameBytes(name, Self.metricsName) {
            kind = .metrics
        } else if Self.hasSameBytes(name, Self.subtitlePrefixName) {
            kind = .subtitle
        } else if let index = mountIndex(named: name) {
            kind = .mount(index)
        } else if Self.hasSameBytes(name, Self.httpName) || Self.hasSameBytes(name, Self.httpsName) {
            kind = .embedded
        }
        return FirstSegment(kind: kind, start: start, length: end - start, hasRest: hasRest, hasEscapes: hasEscapes, hasDotDot: hasDotDot,
                            hasNonASCII: hasNonASCII)
    }

    private static let healthName = Array("healthz".utf8)
    private static let readyName = Array("readyz".utf8)
    private static let metricsName = Array("metrics".utf8)
    private static let subtitlePrefixName = Array(SubtitleURL.reservedPrefix.description.utf8)
    private static let httpName = Array("http".utf8)
    private static let httpsName = Array("https".utf8)

    /// Whether a segment is exactly `name`'s bytes: compared byte by byte, as a Character comparison
    /// would run grapheme breaking.
    private static func hasSameBytes(_ segment: Span<UInt8>, _ name: [UInt8]) -> Bool {
        guard segment.count == name.count else { return false }
        for index in name.indices where segment[index] != name[index] { return false }
        return true
    }

    /// The index in `mountsByBytes` of the mount named exactly `name`.
    private func mountIndex(named name: Span<UInt8>) -> Int? {
        for index in mountsByBytes.indices where Self.hasSameBytes(name, mountsByBytes[index].name) { return index }
        return nil
    }

    /// Routes a request target given as raw (still percent-encoded) path and query.
    /// Only the first segment is split off: every segment request passes here, so the rest of the path
    /// is carried as one raw slice.
    func route(rawPath path: String, query: String?) throws(ProxyError) -> Route {
        let segment = firstSegment(path.utf8.span)
        let utf8 = path.utf8
        let firstStart = utf8.index(utf8.startIndex, offsetBy: segment.start)
        let firstEnd = utf8.index(firstStart, offsetBy: segment.length)
        // The first segment as text is needed only by the forms that are not a mount named plainly.
        var first: Substring { path[firstStart..<firstEnd] }
        let rest: Substring? = segment.hasRest ? path[utf8.index(after: firstEnd)...] : nil
        guard segment.length > 0 else {
            throw .notFound("no mount given: use /{mount}/{path} or /{http|https}/{host}/{path}")
        }
        let mount: RoutedMount
        switch segment.kind {
        case .health: return .health
        case .ready: return .ready
        case .metrics: return .metrics
        case .subtitle:
            if let rest, let kept = subtitleURLs.url(rest, parse: Self.unsignedSubtitleURL) { return .subtitle(kept) }
            let segments = rest?.slashSegments() ?? []
            if segments.count > 1, segments[1] == SignedURL.reservedSetName {
                guard let url = SignedURL(segmentsAfterPrefix: segments[...], query: query) else {
                    throw .notFound("unknown signed resource")
                }
                return .signed(url)
            }
            throw .notFound("unknown synthesized resource")
        case .embedded:
            let segments = rest?.slashSegments() ?? []
            return .origin(try embeddedTarget(scheme: String(first), segments: segments[...], query: query))
        case .mount(let index):
            mount = mountsByBytes[index].mount
        case .other:
            // Only an escaped spelling of a mount's name can still name one.
            let name = try PathDecoding.decodeSegment(first)
            guard let named = mounts[name] else { throw .notFound("no mount named \"\(Sanitized.text(name))\"") }
            mount = named
        }
        // The raw path is `/{mount}/{rest}` as sent; without escapes it is also the decoded path.
        let unescaped = !segment.hasEscapes && segment.start == 1 && rest != nil
        return .origin(try mountTarget(mount, rawRest: rest ?? "", query: query, rawPath: unescaped ? path : nil,
                                       restCannotClimb: !segment.hasEscapes && !segment.hasDotDot && !segment.hasNonASCII))
    }

    /// The subtitle URL of the raw path after the reserved prefix, unless it is of the signed form
    /// (`SignedURL`, read with its query) or not one of ours.
    private static func unsignedSubtitleURL(_ rest: Substring) -> SubtitleURL? {
        let segments = rest.slashSegments()
        guard !(segments.count > 1 && segments[1] == SignedURL.reservedSetName) else { return nil }
        return SubtitleURL(segmentsAfterPrefix: segments[...])
    }

    /// The master a subtitle URL names (its `masterTarget`, raw path and query), routed once per target
    /// for this router's config; 404 when it names no origin.
    func routeMaster(_ masterTarget: String) throws(ProxyError) -> OriginTarget {
        try masterRoutes.target(for: masterTarget, router: self)
    }

    /// The origin target of a mount-form request; `rawRest` is the raw path after `/{mount}/`.
    /// `rawPath`, when given, is the whole request path, known to be `/{mount}/{rawRest}` with no escapes:
    /// it then serves as proxy path and target without building them again. `restCannotClimb` says the
    /// caller saw no "%", no ".." and no byte past ASCII in the path, so the dot-segment check can be skipped.
    func mountTarget(
        _ routed: RoutedMount, rawRest: Substring, query: String?, rawPath: String? = nil, restCannotClimb: Bool = false
    ) throws(ProxyError) -> OriginTarget {
        let mount = routed.mount
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
            if !restCannotClimb { try Self.refuseDotDotSegments(rawRest) }
            // The player's track choices are the proxy's: the origin's query never carries them.
            return OriginTarget(mount: routed, location: .joined(base: baseURL, rest: rawRest, query: PlayerChoices.originQuery(query)),
                                proxyPath: decodedPath, proxyTarget: proxyTarget)
        case .directory(let root):
            let path = try FileConfinement.confinedPath(root: root, rawRelativePath: String(rawRest))
            return OriginTarget(mount: routed, location: .file(path: path), proxyPath: decodedPath, proxyTarget: proxyTarget)
        }
    }

    /// RFC 3986 §5.2.4: an origin removes `..` segments, so `/mount/../x` would reach `x` outside the
    /// mount's base path. Refused in every spelling: raw, percent-encoded, or behind an encoded `/` or `\`
    /// (servers that decode before normalizing treat those as separators) with 403; spellings only some
    /// origins read as `..` (`..;`, `..%20`, `...`, see `DotSegment`) are malformed for us, with 400.
    static func refuseDotDotSegments<Rest: StringProtocol>(_ rawRest: Rest) throws(ProxyError) {
        // Two dots, raw or escaped (`%2e`), or a compatibility dot past ASCII are needed; most paths have
        // none of them and skip the decoding.
        // This runs for every request on a mount (bench/README.md): only the bytes that can matter are
        // looked at, found eight at a time; those skipped each end a run of dots.
        let rest = Substring(rawRest)
        var suspicious = false
        forEachSignificantByte(rest.utf8.span) { byte, afterDot in
            suspicious = byte == UInt8(ascii: "%") || byte >= 0x80 || (byte == UInt8(ascii: ".") && afterDot)
            return !suspicious
        }
        guard suspicious else { return }
        for rawSegment in Substring(rawRest).slashSegments() {
            switch DotSegment.reading(try PathDecoding.decodeSegment(rawSegment)) {
            case .name: continue
            case .parent: throw .forbidden("path leaves the mount")
            case .lenientParent: throw .badRequest("path has a segment some origins read as \"..\"")
            }
        }
    }

    /// Calls `body` with each byte of `bytes` that can matter to dot segments and escapes (found eight at
    /// a time, `ByteSearch.firstPathSignificant`), in order, and whether a run of dots was open before it
    /// (`continuesDotRun`; every byte skipped ends one), until `body` returns false.
    static func forEachSignificantByte(_ bytes: Span<UInt8>, _ body: (_ byte: UInt8, _ afterDot: Bool) -> Bool) {
        var previousWasDot = false
        var index = 0
        while index < bytes.count {
            let next = ByteSearch.firstPathSignificant(in: bytes, from: index)
            if next > index { previousWasDot = false }
            guard next < bytes.count else { return }
            let byte = bytes[next]
            guard body(byte, previousWasDot) else { return }
            previousWasDot = continuesDotRun(previousWasDot, byte)
            index = next + 1
        }
    }

    /// Whether, after `byte`, the last byte that counts was a dot: spaces and controls between dots
    /// (`. .`) count for nothing, as `DotSegment` reads them.
    static func continuesDotRun(_ previousWasDot: Bool, _ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ".") || (previousWasDot && (byte <= 0x20 || byte == 0x7F))
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
        // No base path to leave here, but subtitle sets and caches go by the proxy path, which a dot
        // segment would make name something other than what the origin serves.
        try Self.refuseDotDotSegments(rawRest)
        let suffix = query.map { "?" + $0 } ?? ""
        let url = "\(scheme)://\(authority.lowercased())/\(rawRest)\(PlayerChoices.originQuery(query).map { "?" + $0 } ?? "")"
        let decodedPath = "/\(scheme)/\(authority.lowercased())/" + (try PathDecoding.decodePath(rawRest))
        let proxyTarget = "/\(scheme)/\(authority)/\(rawRest)\(suffix)"
        return OriginTarget(mount: nil, location: .whole(url), proxyPath: decodedPath, proxyTarget: proxyTarget)
    }
}
