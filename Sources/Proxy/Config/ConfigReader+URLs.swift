import Foundation

/// URL and path shapes the config accepts, checked by hand so that what is accepted is exactly what is documented.
extension ConfigReader {
    /// The parts of an `http(s)://host[:port][/path]` URL.
    struct HTTPURLParts {
        var scheme: String
        var host: String
        var port: Int?
        var path: String

        /// `scheme://host[:port]path` with scheme and host lowercased.
        var normalized: String {
            "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")\(path)"
        }
    }

    /// Splits an http(s) URL, or says in words why it is not one that may serve as a base.
    static func httpURLParts(_ text: String) -> Result<HTTPURLParts, URLShapeError> {
        let lowered = asciiLowercased(text)
        let scheme: String
        if lowered.hasPrefix("http://") { scheme = "http" } else if lowered.hasPrefix("https://") { scheme = "https" } else {
            return .failure(URLShapeError("is not an http(s) URL"))
        }
        let rest = Substring(text).dropFirst(scheme.count + 3)
        if rest.contains("?") || rest.contains("#") { return .failure(URLShapeError("must not have a query or fragment")) }
        if rest.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return .failure(URLShapeError("contains spaces or control characters"))
        }
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        // Credentials in the URL would be copied into every redirect the proxy sends to clients.
        if authority.contains("@") { return .failure(URLShapeError("must not carry credentials; use inject_headers")) }
        var host = Substring(authority)
        var port: Int?
        let portSeparator = host.hasPrefix("[") ? host.lastIndex(of: "]").flatMap { host[$0...].firstIndex(of: ":") } : host.firstIndex(of: ":")
        if let colon = portSeparator {
            let digits = host[colon...].dropFirst()
            guard let number = Int(digits), (1...65535).contains(number), digits.utf8.allSatisfy(isASCIIDigit) else {
                return .failure(URLShapeError("has an invalid port \(quoted(String(digits)))"))
            }
            port = number
            host = host[..<colon]
        }
        let lowerHost = asciiLowercased(String(host))
        if lowerHost.isEmpty { return .failure(URLShapeError("has no host")) }
        guard HostPattern.isHostName(lowerHost) || HostPattern.isBracketedIPv6(lowerHost) else {
            return .failure(URLShapeError("has an invalid host \(quoted(String(host)))"))
        }
        return .success(HTTPURLParts(scheme: scheme, host: lowerHost, port: port, path: String(path)))
    }

    /// Fetch §3.2.5's serialized origin for http(s): `scheme://host[:port]` and nothing after it.
    static func isSerializedOrigin(_ text: String) -> Bool {
        guard case .success(let parts) = httpURLParts(text) else { return false }
        return parts.path.isEmpty
    }

    /// The directory a `file:` URL names, percent-decoded; nil when the URL names a remote host.
    static func filePath(fromFileURL text: String) -> String? {
        var rest = Substring(text).dropFirst("file:".count)
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let host = rest.prefix { $0 != "/" }
            guard host.isEmpty || asciiLowercased(String(host)) == "localhost" else { return nil }
            rest = rest.dropFirst(host.count)
        }
        guard rest.hasPrefix("/") else { return nil }
        return String(rest).removingPercentEncoding
    }

    /// `path` made absolute against `base`, with `.`, `..`, repeated and trailing slashes removed.
    /// Lexical only: symbolic links are left for the file server to confine.
    static func standardizedPath(_ path: String, relativeTo base: String) -> String {
        let absolute = path.hasPrefix("/") ? path : base + "/" + path
        var components: [Substring] = []
        for component in absolute.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// Why a URL was refused, phrased to follow the field path.
    struct URLShapeError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }
}
