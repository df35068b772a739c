import Glibc

/// An IPv4 or IPv6 socket address: parsed from a listen host, or read back from the kernel.
struct SocketAddress: CustomStringConvertible {
    /// The raw address, big enough for either family.
    var storage: sockaddr_storage

    /// Wraps an address the kernel filled in.
    init(storage: sockaddr_storage) { self.storage = storage }

    /// Parses an IP literal (brackets allowed around IPv6) or "localhost", with a port.
    init?(host: String, port: Int) {
        guard let port = UInt16(exactly: port) else { return nil }
        var literal = host == "localhost" ? "127.0.0.1" : host
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        storage = sockaddr_storage()
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { target in
                withUnsafeBytes(of: v4) { target.copyMemory(from: $0) }
            }
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { target in
                withUnsafeBytes(of: v6) { target.copyMemory(from: $0) }
            }
            return
        }
        return nil
    }

    /// AF_INET or AF_INET6.
    var family: Int32 { Int32(storage.ss_family) }

    /// The byte length bind(2) expects for this family.
    var length: socklen_t {
        socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
    }

    /// The port in host order.
    var port: Int {
        withUnsafeBytes(of: storage) { raw in
            if family == AF_INET6 {
                return Int(UInt16(bigEndian: raw.loadUnaligned(as: sockaddr_in6.self).sin6_port))
            }
            return Int(UInt16(bigEndian: raw.loadUnaligned(as: sockaddr_in.self).sin_port))
        }
    }

    /// The IP as text, without port or brackets.
    var ipText: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let ok: Bool = withUnsafeBytes(of: storage) { raw in
            if family == AF_INET6 {
                var address = raw.loadUnaligned(as: sockaddr_in6.self).sin6_addr
                return inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil
            }
            var address = raw.loadUnaligned(as: sockaddr_in.self).sin_addr
            return inet_ntop(AF_INET, &address, &text, socklen_t(text.count)) != nil
        }
        guard ok else { return "?" }
        return text.withUnsafeBufferPointer { pointer in
            String(decoding: pointer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// `ip:port`, IPv6 in brackets.
    var description: String {
        family == AF_INET6 ? "[\(ipText)]:\(port)" : "\(ipText):\(port)"
    }
}
