import Foundation

/// The proxy URL of an origin URL, in the embedded form (the origin's host must be on
/// `embedded.allow_hosts`):
///
///     https://origin.example/vod/movie.ism/manifest(format=m3u8-aapl)
///       -> http://127.0.0.1:8080/https/origin.example/vod/movie.ism/manifest(format=m3u8-aapl)
///
/// The path and query are copied exactly as the origin URL escapes them (`%20`, `%2F`, `%25` and
/// escaped UTF-8 stay as they are), and the result is parsed rather than assembled through a
/// `URLComponents` setter, so a URL it cannot express gives `nil`, never a trap.
func proxied(_ origin: URL, proxy: URL) -> URL? {
    guard let source = URLComponents(url: origin, resolvingAgainstBaseURL: true),
          let scheme = source.scheme?.lowercased(), scheme == "http" || scheme == "https",
          let encodedHost = source.percentEncodedHost, !encodedHost.isEmpty
    else { return nil }
    let host = encodedHost.contains(":") && !encodedHost.hasPrefix("[") ? "[\(encodedHost)]" : encodedHost
    let authority = source.port.map { "\(host):\($0)" } ?? host
    var base = proxy.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    let path = source.percentEncodedPath.isEmpty ? "/" : source.percentEncodedPath
    var text = "\(base)/\(scheme)/\(authority)\(path)"
    if let query = source.percentEncodedQuery { text += "?\(query)" }
    return URL(string: text)
}
