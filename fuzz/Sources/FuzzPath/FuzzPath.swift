import HTTPClient
import HTTPServer
import Proxy

/// libFuzzer entry: routing, percent-decoding and the dot-segment check on any request path. The first
/// byte picks a prefix (a redirect mount, a proxy mount under a deeper base, a mount at the origin's
/// root, the embedded form with a name, an IPv6 literal or an IPv4 literal, or none); the rest is the
/// path, cut at its first `?` into path and query as the request line would be. Asserted:
/// - routing never traps;
/// - an accepted path stays under its base, at any origin: read the most lenient way an origin may
///   (percent-decoded, split at `/` and `\`, cut at `;` `?` `#`, whitespace and controls trimmed,
///   compatibility dots folded, `...` as two levels up), no segment climbs above the base;
/// - an embedded-form URL names an allowlisted host;
/// - routing is idempotent: the proxy target an accepted path reports routes to the same URL.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let prefixes = ["/r/", "/p/", "/root/", "/http/origin.test/", "/http/[::1]:8080/", "/https/127.0.0.1/", "/", ""]
    let prefix = prefixes[Int(data[0]) % prefixes.count]
    let text = prefix + String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let (path, query) = split(text)
    let outcome = PathFuzzing.routing.route(rawPath: path, query: query)
    guard case .origin(let url, let base, let mount, let proxyTarget) = outcome else { return 0 }
    // By bytes: a String comparison goes by grapheme, and a combining mark after the "/" joins it.
    let urlBytes = Array(url.utf8), baseBytes = Array(base.utf8)
    guard urlBytes.starts(with: baseBytes + [UInt8(ascii: "/")]) || urlBytes == baseBytes else { fatalError("\(url) is not under \(base)") }
    if mount == nil, !PathFuzzing.isAllowlisted(base) { fatalError("embedded host not allowlisted: \(base)") }
    var rest = urlBytes[baseBytes.count...]
    if let mark = rest.firstIndex(of: UInt8(ascii: "?")) { rest = rest[..<mark] }
    if PathFuzzing.climbs(rest) { fatalError("accepted path climbs out of its base: \(url)") }
    let (againPath, againQuery) = split(proxyTarget)
    guard case .origin(let againURL, _, _, _) = PathFuzzing.routing.route(rawPath: againPath, query: againQuery),
          againURL == url
    else { fatalError("routing \(proxyTarget) again does not give \(url)") }
    return 0
}

/// Cut at the first "?" byte, as the request line is (a combining mark after it belongs to the query).
private func split(_ target: String) -> (String, String?) {
    guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (target, nil) }
    return (String(target[..<mark]), String(target[target.utf8.index(after: mark)...]))
}

enum PathFuzzing {
    static let routing: PathRouting = {
        let json = """
            { "mounts": { "r": { "origin": "http://origin.test/base" },
                          "p": { "origin": "http://origin.test/base/deep", "segments": "proxy" },
                          "root": { "origin": "https://origin.test" } },
              "embedded": { "allow_hosts": ["origin.test", "*.cdn.test", "[::1]", "127.0.0.1"] } }
            """
        do {
            return PathRouting(config: try ProxyConfig.decode(Array(json.utf8), environment: [:]))
        } catch {
            fatalError("fuzz config does not load: \(error)")
        }
    }()

    /// `scheme://host[:port]` with an allowlisted host.
    static func isAllowlisted(_ base: String) -> Bool {
        guard let schemeEnd = base.range(of: "://") else { return false }
        var host = base[schemeEnd.upperBound...]
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            host = host[...close]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        if host.hasPrefix("[") { return IPAddress(String(host)) == IPAddress("::1") }
        return host == "origin.test" || host == "127.0.0.1" || (host.hasSuffix(".cdn.test") && host.count > 9)
    }

    /// Whether the most lenient origin would take `path` (below the base) above the base.
    static func climbs(_ path: ArraySlice<UInt8>) -> Bool {
        let decoded = String(decoding: percentDecoded(path), as: UTF8.self)
        var depth = 0
        for piece in decoded.unicodeScalars.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "/" || $0 == "\\" }) {
            var dots = 0, other = false
            for scalar in piece {
                if scalar == ";" || scalar == "?" || scalar == "#" { break }
                switch scalar.value {
                case 0x2E, 0x2024, 0xFE52, 0xFF0E: dots += 1
                case 0x2025: dots += 2
                default:
                    let category = scalar.properties.generalCategory
                    if !(scalar.properties.isWhitespace || category == .control || category == .format) { other = true }
                }
            }
            // Empty and blank pieces are no level: origins that squeeze `//` would not count them.
            if other {
                depth += 1
            } else if dots >= 2 {
                depth -= dots - 1
                if depth < 0 { return true }
            }
        }
        return false
    }

    /// `%XX` decoded wherever it is well formed; anything else kept as it is.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var output: [UInt8] = []
        var index = 0
        while index < input.count {
            if input[index] == 0x25, index + 2 < input.count, let high = hex(input[index + 1]), let low = hex(input[index + 2]) {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(input[index])
                index += 1
            }
        }
        return output
    }

    static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x61...0x66: return byte - 0x61 + 10
        case 0x41...0x46: return byte - 0x41 + 10
        default: return nil
        }
    }
}
