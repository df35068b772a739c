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
        guard let authority, !authority.isEmpty, !authority.contains("@") else { return nil }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = Substring(authority)
        }
        guard !host.isEmpty else { return nil }
        var port = defaultPort
        // RFC 3986 §3.2.3: an empty port means the default.
        if let portText, !portText.isEmpty {
            guard portText.count <= 5, portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let value = Int(portText), (1...65_535).contains(value) else { return nil }
            port = value
        }
        return Endpoint(host: String(host), port: port)
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
