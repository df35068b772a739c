/// What the proxy did with a request: sent as `X-HLS-Proxy-Route`, logged, and counted in
/// `hls_proxy_requests_total{route=...}`. A closed set, so metrics count into a fixed table.
///
/// The case list is the only list: a route's index is its position (the raw value the compiler
/// numbers), and its name is the case's own name in kebab case, both worked out once.
enum ProxyRoute: Int, CaseIterable, Sendable {
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
    case subtitlePlaylist

    /// The position in `allCases`, which is also the order metrics are written in (by name).
    var index: Int { rawValue }

    /// The name sent, logged and counted: `redirect`, `subtitle-playlist`.
    var name: String { Self.names[rawValue] }

    /// Routes whose bodies the proxy makes (rewritten masters, subtitle playlists and files): they carry
    /// its strong ETag and are answered 304 on a matching If-None-Match.
    var isSynthesized: Bool { self == .master || self == .subtitlePlaylist || self == .subtitle }

    /// The name as a JSON string, `"redirect"`, for access lines: made once, so the line copies it
    /// without scanning it for escapes.
    var quotedName: [UInt8] { Self.quotedNames[rawValue] }

    /// `name` of every case, by index: the case name with each capital made `-` and the lower letter.
    private static let names: [String] = allCases.map { route in
        var name = ""
        for character in String(describing: route) {
            if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
        }
        return name
    }

    /// `quotedName` of every case, by index. Route names need no JSON escapes.
    private static let quotedNames: [[UInt8]] = names.map { Array("\"\($0)\"".utf8) }
}
