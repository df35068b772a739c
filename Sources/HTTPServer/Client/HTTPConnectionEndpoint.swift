/// Where a pooled connection leads: the same host, port, TLS context and verified name, or a
/// different connection. The context is held (not just its address) so its identity cannot be reused.
struct HTTPConnectionEndpoint: Hashable, Sendable {
    let host: String
    let port: Int
    let tls: TLSContext?
    let serverName: String?

    init(_ request: HTTPClientRequest) {
        host = request.host.lowercased()
        port = request.port
        tls = request.tls
        serverName = request.tls == nil ? nil : (request.serverName ?? request.host).lowercased()
    }

    static func == (a: HTTPConnectionEndpoint, b: HTTPConnectionEndpoint) -> Bool {
        a.host == b.host && a.port == b.port && a.tls === b.tls && a.serverName == b.serverName
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(host)
        hasher.combine(port)
        hasher.combine(tls.map(ObjectIdentifier.init))
        hasher.combine(serverName)
    }
}
