extension OriginURL {
    /// The host and port of an http(s) authority.
    struct Endpoint: Equatable {
        /// The host, IPv6 literals without brackets.
        var host: String
        /// The explicit port, or the scheme's default.
        var port: Int
    }

    /// The host and port, or nil when the authority is missing, carries userinfo, or is malformed.
    func endpoint(defaultPort: Int) -> Endpoint? {
        guard let authority, !authority.isEmpty, !authority.utf8.contains(UInt8(ascii: "@")),
              let parts = HostPort(Substring(authority)), !parts.host.isEmpty else { return nil }
        var port = defaultPort
        // RFC 3986 §3.2.3: an empty port means the default.
        if let portText = parts.portText, !portText.isEmpty {
            guard let value = HostPort.portNumber(portText) else { return nil }
            port = value
        }
        return Endpoint(host: String(parts.host), port: port)
    }

    /// The endpoint a connection to this URL uses: http and https only, with the scheme's default port
    /// (RFC 9110 §4.2); nil when the client would not connect (`endpoint`'s refusals, any other scheme).
    var connectionEndpoint: Endpoint? {
        guard scheme == "http" || scheme == "https" else { return nil }
        return endpoint(defaultPort: scheme == "https" ? 443 : 80)
    }

    /// The host a fetch of `url` connects to, lowercased: what address vetting and the allowlist judge,
    /// read by the parser the connection uses, so no other parse of the URL can name a different host.
    static func connectionHost(of url: String) -> String? {
        OriginURL(parsing: url).connectionEndpoint?.host.lowercased()
    }

    /// `scheme://host:port` of the endpoint a fetch of `url` connects to, lowercased (RFC 6454 §4).
    static func connectionOrigin(of url: String) -> String? {
        let parsed = OriginURL(parsing: url)
        guard let scheme = parsed.scheme, let endpoint = parsed.connectionEndpoint else { return nil }
        return "\(scheme)://\(endpoint.host.lowercased()):\(endpoint.port)"
    }

    /// Scheme, host and port equal (RFC 6454 §4, case-insensitively for scheme and host, an omitted
    /// port the scheme's default). Only http and https URLs have an origin here; anything else is
    /// the same origin as nothing.
    func isSameOrigin(as other: OriginURL) -> Bool {
        guard let scheme, scheme == other.scheme, scheme == "http" || scheme == "https" else { return false }
        let defaultPort = scheme == "https" ? 443 : 80
        guard let left = endpoint(defaultPort: defaultPort), let right = other.endpoint(defaultPort: defaultPort) else { return false }
        return left.port == right.port && left.host.lowercased() == right.host.lowercased()
    }

    /// Path and query as a request-target (RFC 9112 §3.2.1 origin-form): "/" for an empty path,
    /// and bytes not allowed on a request line (space, controls, non-ASCII) percent-encoded.
    var requestTarget: String {
        var target = path.isEmpty ? "/" : path
        if let query { target += "?" + query }
        return OriginURL.percentEncodingUnsafeBytes(target)
    }

    /// Percent-encodes bytes at or below 0x20 and at or above 0x7F; everything else stays as written.
    static func percentEncodingUnsafeBytes(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) else { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if byte <= 0x20 || byte >= 0x7F {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
