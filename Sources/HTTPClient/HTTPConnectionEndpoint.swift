/// Where a pooled connection leads: the same host, port, TLS context, verified name and connected
/// address, or a different connection. The context is held (not just its address) so its identity
/// cannot be reused. `address` is the peer a connection opened for vetted addresses
/// (`HTTPClientRequest.addresses`) reached; it is nil for connections whose host was resolved at
/// connect time, so the two kinds never stand in for each other.
struct HTTPConnectionEndpoint: Hashable, Sendable {
    let host: String
    let port: Int
    let tls: TLSContext?
    let serverName: String?
    let address: IPAddress?

    init(_ request: HTTPClientRequest, address: IPAddress?) {
        host = request.host.lowercased()
        port = request.port
        tls = request.tls
        serverName = request.tls == nil ? nil : (request.serverName ?? request.host).lowercased()
        self.address = address
    }

    /// The endpoints an idle connection for `request` may be found under: one per vetted address,
    /// or the one for connections resolved at connect time.
    static func candidates(for request: HTTPClientRequest) -> [HTTPConnectionEndpoint] {
        guard let addresses = request.addresses else { return [HTTPConnectionEndpoint(request, address: nil)] }
        return addresses.map { HTTPConnectionEndpoint(request, address: $0) }
    }

    static func == (a: HTTPConnectionEndpoint, b: HTTPConnectionEndpoint) -> Bool {
        a.host == b.host && a.port == b.port && a.tls === b.tls && a.serverName == b.serverName && a.address == b.address
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(host)
        hasher.combine(port)
        hasher.combine(tls.map(ObjectIdentifier.init))
        hasher.combine(serverName)
        hasher.combine(address)
    }
}
