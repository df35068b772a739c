import Glibc
import HTTPWire

/// Name resolution for callers that must vet an origin's addresses before fetching (SSRF checks).
/// A value, so a caller can be given another lookup (tests answer names from a table or change their
/// answer between calls, as a rebinding DNS server does).
public struct HostResolver: Sendable {
    /// The lookup: every address a name resolves to. Blocks the calling thread.
    public let lookup: @Sendable (String) throws(HTTPClientError) -> [IPAddress]

    /// A resolver answering with `lookup`.
    public init(lookup: @escaping @Sendable (String) throws(HTTPClientError) -> [IPAddress]) {
        self.lookup = lookup
    }

    /// getaddrinfo(3): the system's resolver.
    public static let system = HostResolver { host throws(HTTPClientError) in try systemAddresses(of: host) }

    /// Every address `host` resolves to (a literal resolves to itself), IPv6 brackets removed.
    /// Blocks the calling thread for as long as the lookup takes; call `resolve` from async code instead.
    public func addresses(of host: String) throws(HTTPClientError) -> [IPAddress] {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) else {
            throw .invalidRequest("bad host")
        }
        return try lookup(name)
    }

    /// `addresses(of:)` on a thread of its own, so a slow resolver never holds an async pool thread.
    /// With `slots`, the lookup's thread counts against them like an exchange; none free:
    /// `.tooManyExchanges` at once, and no thread is made.
    public func resolve(_ host: String, slots: HTTPExchangeSlots? = nil) async throws(HTTPClientError) -> [IPAddress] {
        if let slots, !slots.acquire() { throw .tooManyExchanges(limit: slots.limit) }
        let result: Result<[IPAddress], HTTPClientError> = await withCheckedContinuation { continuation in
            let started = HTTPClientThread.start {
                let found = Result { () throws(HTTPClientError) in try addresses(of: host) }
                // Given back before the caller resumes (the thread only returns after this), so the
                // caller's next exchange never finds the lookup's slot still taken.
                slots?.release()
                continuation.resume(returning: found)
            }
            if !started {
                slots?.release()
                continuation.resume(returning: .failure(.dnsFailure("could not start a resolver thread")))
            }
        }
        return try result.get()
    }

    /// Every IPv4 and IPv6 address getaddrinfo gives for `name`, each once, in its order.
    static func systemAddresses(of name: String) throws(HTTPClientError) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        guard status == 0, let first = list else {
            if status == EAI_SYSTEM { throw .dnsFailure(SystemCall.describe(call: "getaddrinfo", errno: errno)) }
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
}
