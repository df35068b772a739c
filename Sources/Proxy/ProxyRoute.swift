/// What the proxy did with a request: sent as `X-HLS-Proxy-Route`, logged, and counted in
/// `hls_proxy_requests_total{route=...}`. A closed set, so metrics count into a fixed table.
enum ProxyRoute: String, CaseIterable, Sendable {
    case cache
    case error
    case file
    case health
    case master
    case metrics
    case passthrough
    case playlist
    case preflight
    case proxy
    case ready
    case redirect
    /// Refused by the HTTP server before routing: malformed, too large, too slow, over the connection cap.
    case rejected
    case subtitle
    case subtitlePlaylist = "subtitle-playlist"

    /// The position in `allCases`, which is also the order metrics are written in (by name): found
    /// there rather than numbered by hand, so a new case cannot get a position another holds.
    var index: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// Routes whose bodies the proxy makes (rewritten masters, subtitle playlists and files): they carry
    /// its strong ETag and are answered 304 on a matching If-None-Match.
    var isSynthesized: Bool { self == .master || self == .subtitlePlaylist || self == .subtitle }

    /// The name as a JSON string, `"redirect"`, for access lines: made once from `rawValue`, so the
    /// line copies it without scanning it for escapes.
    var quotedName: [UInt8] { Self.quotedNames[index] }

    /// `quotedName` of every case, by `index`. Route names need no JSON escapes.
    private static let quotedNames: [[UInt8]] = allCases.map { Array("\"\($0.rawValue)\"".utf8) }
}
