import Glibc

/// An IPv4 or IPv6 address as its network-order bytes (4 or 16 of them).
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address bytes, most significant first.
    public let bytes: [UInt8]

    /// Parses a literal such as `10.0.0.1`, `::1` or `[fe80::1]`; nil for anything else (names included).
    public init?(_ literal: String) {
        let text = literal.hasPrefix("[") && literal.hasSuffix("]") ? String(literal.dropFirst().dropLast()) : literal
        var v4 = in_addr()
        if text.contains("."), !text.contains(":"), inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard text.contains(":"), inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        bytes = withUnsafeBytes(of: v6) { Array($0) }
    }

    /// Exactly 4 or 16 bytes; nil otherwise.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    init?(socketAddress: UnsafeMutablePointer<sockaddr>?, family: Int32) {
        guard let socketAddress else { return nil }
        switch family {
        case AF_INET:
            let address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            bytes = withUnsafeBytes(of: address) { Array($0) }
        case AF_INET6:
            let address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            bytes = withUnsafeBytes(of: address) { Array($0) }
        default:
            return nil
        }
    }

    /// Calls `body` with this address and `port` as a socket address (sockaddr_in or sockaddr_in6).
    func withSocketAddress<Result, Failure: Error>(
        port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t, Int32) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let networkPort = in_port_t(UInt16(clamping: port).bigEndian)
        if isIPv4 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = networkPort
            withUnsafeMutableBytes(of: &address.sin_addr) { $0.copyBytes(from: bytes.prefix(4)) }
            return try withUnsafePointer(to: address) { (pointer) throws(Failure) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (rebound) throws(Failure) in try body(rebound, socklen_t(MemoryLayout<sockaddr_in>.size), AF_INET) }
            }
        }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = networkPort
        withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: bytes.prefix(16)) }
        return try withUnsafePointer(to: address) { (pointer) throws(Failure) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (rebound) throws(Failure) in try body(rebound, socklen_t(MemoryLayout<sockaddr_in6>.size), AF_INET6) }
        }
    }

    /// True for a 4-byte address.
    public var isIPv4: Bool { bytes.count == 4 }

    /// `10.0.0.1` or the compressed IPv6 form.
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = isIPv4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &text, socklen_t(text.count)) }
        guard written != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
