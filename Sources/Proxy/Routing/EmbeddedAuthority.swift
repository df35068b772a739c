import HTTPClient
import HTTPServer
import HTTPWire

/// The `host[:port]` segment of an embedded URL, checked strictly: a letter-digit-dot-hyphen name, an
/// IPv4 address or a bracketed IPv6 address (RFC 3986 §3.2.2: `[::1]`, no zone identifier), optional
/// decimal port 1-65535. Anything else (userinfo, percent signs) is refused.
enum EmbeddedAuthority {
    /// The host, lowercased (an IPv6 literal keeps its brackets), or nil when the authority is malformed.
    static func host(of authority: Substring) -> String? {
        guard let parts = HostPort(authority) else { return nil }
        // Unlike an origin URL's, an embedded authority's empty port (`host:`) is refused.
        if let portText = parts.portText, HostPort.portNumber(portText) == nil { return nil }
        if parts.isBracketed { return ipv6Literal(parts.host) }
        let host = parts.host
        guard !host.isEmpty, host.count <= 253,
              host.utf8.allSatisfy({ byte in
                  (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                      || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
              }),
              host.first != ".", host.first != "-"
        else { return nil }
        return host.lowercased()
    }

    /// The IPv6 address from between the brackets, lowercased and bracketed again: hex digits, colons
    /// and dots (an embedded IPv4 tail) only, and an address `inet_pton` accepts.
    private static func ipv6Literal(_ inner: Substring) -> String? {
        guard !inner.isEmpty, inner.utf8.count <= 45,
              inner.utf8.allSatisfy({ byte in
                  (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
                      || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
              }),
              let address = IPAddress(String(inner)), !address.isIPv4
        else { return nil }
        return "[" + inner.lowercased() + "]"
    }
}
