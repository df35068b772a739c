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

    /// The position in `allCases`, which is also the order metrics are written in (by name).
    var index: Int {
        switch self {
        case .cache: 0
        case .error: 1
        case .file: 2
        case .health: 3
        case .master: 4
        case .metrics: 5
        case .passthrough: 6
        case .playlist: 7
        case .preflight: 8
        case .proxy: 9
        case .ready: 10
        case .redirect: 11
        case .rejected: 12
        case .subtitle: 13
        case .subtitlePlaylist: 14
        }
    }

    /// Routes whose bodies the proxy makes (rewritten masters, subtitle playlists and files): they carry
    /// its strong ETag and are answered 304 on a matching If-None-Match.
    var isSynthesized: Bool { self == .master || self == .subtitlePlaylist || self == .subtitle }

    /// The name as a JSON string, `"redirect"`, for access lines: made at compile time, so the line
    /// copies it without scanning it for escapes.
    var quotedName: StaticString {
        switch self {
        case .cache: #""cache""#
        case .error: #""error""#
        case .file: #""file""#
        case .health: #""health""#
        case .master: #""master""#
        case .metrics: #""metrics""#
        case .passthrough: #""passthrough""#
        case .playlist: #""playlist""#
        case .preflight: #""preflight""#
        case .proxy: #""proxy""#
        case .ready: #""ready""#
        case .redirect: #""redirect""#
        case .rejected: #""rejected""#
        case .subtitle: #""subtitle""#
        case .subtitlePlaylist: #""subtitle-playlist""#
        }
    }
}
