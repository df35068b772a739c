import HTTPWire
/// A request for `HTTPClient`: one http or https exchange with one host.
public struct HTTPClientRequest: Sendable {
    /// The method; GET and HEAD are what the proxy sends.
    public var method: HTTPMethod
    /// The host name or IP literal to connect to (IPv6 without brackets).
    public var host: String
    /// The TCP port.
    public var port: Int
    /// The request-target in origin-form: path plus query, exactly as it goes on the wire.
    public var target: String
    /// Header fields sent as given, in order. `Host` is added from `host` and `port` when absent.
    public var headers: HTTPHeaders
    /// The TLS context for an https exchange; nil for plain http.
    public var tls: TLSContext?
    /// The name the server's certificate must carry, and the SNI name; nil means `host`.
    public var serverName: String?
    /// The only addresses to connect to, in order, when set: those an SSRF check vetted for `host`,
    /// which is then not resolved again (a rebinding DNS answer between the check and the connect
    /// cannot move the connection). `host` still gives the Host field and the TLS name. A pooled
    /// connection is reused only when it is connected to one of them. Nil: `host` is resolved when
    /// a new connection is opened.
    public var addresses: [IPAddress]?

    /// Makes a request; give `tls` for https (and a `port`, usually 443).
    public init(
        method: HTTPMethod = .get, host: String, port: Int = 80, target: String, headers: HTTPHeaders = HTTPHeaders(),
        tls: TLSContext? = nil, serverName: String? = nil
    ) {
        self.method = method
        self.host = host
        self.port = port
        self.target = target
        self.headers = headers
        self.tls = tls
        self.serverName = serverName
    }

    /// The `Host` field value for this request (RFC 9112 §3.2): IPv6 literals in brackets, the port
    /// only when it is not the scheme's default (RFC 9110 §4.2.1 and §4.2.2: 80 for http, 443 for https).
    public var hostFieldValue: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (tls == nil ? 80 : 443) ? name : "\(name):\(port)"
    }
}
