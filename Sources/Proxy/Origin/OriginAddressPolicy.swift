import HTTPClient
import HTTPServer

/// Which addresses an allowlisted (non-mount) origin host may resolve to. A name on the allowlist is
/// not enough: if it resolves to loopback, link-local or private space, a client could reach the
/// network the proxy sits in (SSRF). Such addresses pass only when listed as IP literals in
/// `embedded.allow_hosts`, or when `embedded.allow_private_networks` is true.
/// The addresses a check passes are the ones to connect to (`OriginRequest.addresses`): resolving the
/// name again to connect would let a rebinding DNS server answer differently the second time.
struct OriginAddressPolicy: Sendable {
    let allowPrivateNetworks: Bool
    private(set) var listedAddresses: Set<IPAddress>
    let resolver: HostResolver

    init(_ embedded: ProxyConfig.EmbeddedOrigins, resolver: HostResolver = .system) {
        allowPrivateNetworks = embedded.allowPrivateNetworks
        listedAddresses = Set(embedded.allowHosts.compactMap { IPAddress($0.pattern) })
        self.resolver = resolver
    }

    /// The same policy with no allowlisted IP literal passing: a signed token's sources reach internal
    /// space only when `allow_private_networks` says so (docs/signing.md), whatever `allow_hosts` lists.
    func ignoringListedAddresses() -> OriginAddressPolicy {
        var strict = self
        strict.listedAddresses = []
        return strict
    }

    /// Whether a connection to `address` is allowed.
    func permits(_ address: IPAddress) -> Bool {
        allowPrivateNetworks || listedAddresses.contains(address) || !Self.isInternal(address)
    }

    /// Resolves `host` off the async pool and returns its addresses, every one of which must be
    /// permitted; the fetch connects to these and nothing else. The lookup's thread takes one of
    /// `slots` while it runs: with none free, `OriginError.overloaded`; else a `ProxyError`.
    @discardableResult
    func check(host: String, slots: HTTPExchangeSlots? = nil) async throws -> [IPAddress] {
        let addresses: [IPAddress]
        do throws(HTTPClientError) {
            addresses = try await resolver.resolve(host, slots: slots)
        } catch .tooManyExchanges(let limit) {
            throw OriginError.overloaded(limit: limit)
        } catch {
            throw ProxyError.badGateway("could not resolve \(Sanitized.text(host))")
        }
        try verdict(host: host, addresses: addresses)
        return addresses
    }

    /// The same check, blocking the calling thread (never call it on a task pool thread): the vetted
    /// addresses, or nil when the name does not resolve or any address is refused.
    func vettedAddresses(host: String) -> [IPAddress]? {
        guard let addresses = try? resolver.addresses(of: host), (try? verdict(host: host, addresses: addresses)) != nil else {
            return nil
        }
        return addresses
    }

    /// Whether `vettedAddresses` passes `host`.
    func checkBlocking(host: String) -> Bool {
        vettedAddresses(host: host) != nil
    }

    private func verdict(host: String, addresses: [IPAddress]) throws(ProxyError) {
        guard !addresses.isEmpty else { throw .badGateway("\(Sanitized.text(host)) has no address") }
        if let refused = addresses.first(where: { !permits($0) }) {
            throw .forbidden("host \(Sanitized.text(host)) resolves to \(refused), a loopback, link-local or private address")
        }
    }

    /// Loopback, unspecified, link-local, private (RFC 1918, RFC 4193), shared (RFC 6598), multicast
    /// and reserved space; IPv4 inside IPv6 (mapped, compatible, NAT64) is judged as IPv4.
    static func isInternal(_ address: IPAddress) -> Bool {
        let b = address.bytes
        if b.count == 4 { return isInternalIPv4(b) }
        guard b.count == 16 else { return true }
        let zeroPrefix = b[0..<10].allSatisfy { $0 == 0 }
        if zeroPrefix, b[10] == 0xFF, b[11] == 0xFF { return isInternalIPv4(Array(b[12...])) }
        if zeroPrefix, b[10] == 0, b[11] == 0 { return true }  // ::, ::1 and deprecated ::a.b.c.d
        if b[0..<12].elementsEqual([0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0]) { return isInternalIPv4(Array(b[12...])) }
        if b[0] & 0xFE == 0xFC { return true }  // fc00::/7 unique local
        if b[0] == 0xFE, b[1] & 0xC0 == 0x80 { return true }  // fe80::/10 link-local
        if b[0] == 0xFE, b[1] & 0xC0 == 0xC0 { return true }  // fec0::/10 old site-local
        if b[0] == 0xFF { return true }  // multicast
        return false
    }

    private static func isInternalIPv4(_ b: [UInt8]) -> Bool {
        guard b.count == 4 else { return true }
        switch (b[0], b[1]) {
        case (0, _), (10, _), (127, _): return true
        case (100, 64...127): return true  // RFC 6598 shared address space
        case (169, 254): return true
        case (172, 16...31): return true
        case (192, 168): return true
        case (192, 0) where b[2] == 0: return true  // RFC 6890 IETF protocol assignments
        case (198, 18...19): return true  // RFC 2544 benchmarking
        default: return b[0] >= 224  // multicast, reserved, broadcast
        }
    }
}
