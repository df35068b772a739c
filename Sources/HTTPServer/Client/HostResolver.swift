import Glibc

/// Name resolution for callers that must vet an origin's addresses before fetching (SSRF checks).
public enum HostResolver {
    /// Every IPv4 and IPv6 address `host` resolves to (a literal resolves to itself). Blocks the
    /// calling thread for as long as getaddrinfo takes; call `resolve` from async code instead.
    public static func addresses(of host: String) throws(HTTPClientError) -> [IPAddress] {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) else {
            throw .invalidRequest("bad host")
        }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        guard status == 0, let first = list else {
            if status == EAI_SYSTEM { throw .dnsFailure(HTTPClientConnection.describe(call: "getaddrinfo", errno: errno)) }
            throw .dnsFailure(gai_strerror(status).map { String(cString: $0) } ?? "getaddrinfo failed")
        }
        defer { freeaddrinfo(first) }
        var found: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            entry = current.pointee.ai_next
            if let address = IPAddress(socketAddress: current.pointee.ai_addr, family: current.pointee.ai_family),
               !found.contains(address) {
                found.append(address)
            }
        }
        return found
    }

    /// `addresses(of:)` on a thread of its own, so a slow resolver never holds an async pool thread.
    public static func resolve(_ host: String) async throws(HTTPClientError) -> [IPAddress] {
        let result: Result<[IPAddress], HTTPClientError> = await withCheckedContinuation { continuation in
            let started = HTTPClientThread.start {
                continuation.resume(returning: Result { () throws(HTTPClientError) in try addresses(of: host) })
            }
            if !started { continuation.resume(returning: .failure(.dnsFailure("could not start a resolver thread"))) }
        }
        return try result.get()
    }
}
