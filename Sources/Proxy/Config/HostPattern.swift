import HTTPClient
import HTTPServer

/// An origin host the embedded URL form may reach: `example.com` exactly, or `*.example.com` for any host
/// below it (but not `example.com` itself). Compared case-insensitively; ports are not part of a pattern.
public struct HostPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written, lowercased.
    public let pattern: String
    /// For `*.example.com`, `.example.com`; nil for an exact pattern.
    private let suffix: String?
    /// For `[::1]`, the address: a host matches when it is the same address however written
    /// (`[0:0::1]`, or `::1` as URL parsers give the host without brackets).
    private let ipv6: IPAddress?

    /// Parses a pattern; nil unless it is a host name (letters, digits, `-`, `_`, dots), an IPv4 address,
    /// a bracketed IPv6 address, or `*.` followed by a host name.
    public init?(_ pattern: String) {
        let lowered = ConfigReader.asciiLowercased(pattern)
        var address: IPAddress?
        if lowered.hasPrefix("*.") {
            let domain = String(lowered.dropFirst(2))
            guard Self.isHostName(domain) else { return nil }
            suffix = "." + domain
        } else if Self.isBracketedIPv6(lowered) {
            guard let parsed = IPAddress(lowered), !parsed.isIPv4 else { return nil }
            address = parsed
            suffix = nil
        } else {
            guard Self.isHostName(lowered) else { return nil }
            suffix = nil
        }
        self.pattern = lowered
        ipv6 = address
    }

    /// Whether `host` (no port, as it appears in the URL) is allowed by this pattern.
    public func matches(_ host: String) -> Bool {
        if let ipv6 {
            // Only a literal: a name never matches an address pattern, whatever it resolves to.
            return host.contains(":") && IPAddress(host) == ipv6
        }
        let lowered = ConfigReader.asciiLowercased(host)
        guard let suffix else { return lowered == pattern }
        // `*.example.com` needs at least one label in front: "example.com" and ".example.com" do not match.
        let host = Array(lowered.utf8)
        let tail = Array(suffix.utf8)
        return host.count > tail.count && host.suffix(tail.count).elementsEqual(tail) && Self.isHostName(lowered)
    }

    public var description: String { pattern }

    /// Dot-separated labels of letters, digits, `-` and `_`, none empty.
    static func isHostName(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return text.utf8.count <= 253
            && labels.allSatisfy { label in
                (1...63).contains(label.utf8.count)
                    && label.utf8.allSatisfy { ConfigReader.isPlainKeyByte($0) }
            }
    }

    /// Whether `text` is an IPv6 address written without brackets (`::1`): refused as a pattern, since
    /// allow_hosts entries are hosts as they appear in a URL, where IPv6 needs its brackets.
    public static func isBareIPv6(_ text: String) -> Bool {
        !text.hasPrefix("[") && text.contains(":") && IPAddress(text) != nil
    }

    /// `[` hex digits, colons and dots `]`, as an IPv6 literal appears in a URL (RFC 3986 §3.2.2).
    static func isBracketedIPv6(_ text: String) -> Bool {
        guard text.hasPrefix("["), text.hasSuffix("]"), text.utf8.count > 2 else { return false }
        return text.utf8.dropFirst().dropLast().allSatisfy { byte in
            ConfigReader.isASCIIDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
        }
    }
}
