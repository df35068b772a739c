/// An authority's `host[:port]` split once (RFC 3986 §3.2.2-3.2.3), for the origin client's endpoint
/// and the router's embedded URLs alike: a bracketed IPv6 literal keeps its colons out of the port.
/// What a host may be made of is the caller's rule; this only splits and reads the port.
struct HostPort: Equatable {
    /// The host as written, an IPv6 literal without its brackets.
    var host: Substring
    /// Whether the host was written in brackets (an IP literal, RFC 3986 §3.2.2).
    var isBracketed: Bool
    /// The text after the port's colon (empty for `host:`), or nil when there is no port colon.
    var portText: Substring?

    /// Nil when a `[` has no `]`, or anything but `:port` follows the `]`.
    init?(_ authority: Substring) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            isBracketed = true
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            isBracketed = false
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
            isBracketed = false
        }
    }

    /// A port written as one to five ASCII digits naming 1-65535; nil for anything else (a sign,
    /// spaces, zero, empty text).
    static func portNumber(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 5, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let value = Int(text), (1...65_535).contains(value) else { return nil }
        return value
    }
}
