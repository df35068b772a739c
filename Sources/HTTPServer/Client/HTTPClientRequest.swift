/// A request for `HTTPClient`: one plain-http exchange with one host.
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

    /// Makes a request.
    public init(method: HTTPMethod = .get, host: String, port: Int = 80, target: String, headers: HTTPHeaders = HTTPHeaders()) {
        self.method = method
        self.host = host
        self.port = port
        self.target = target
        self.headers = headers
    }

    /// The `Host` field value for this request (RFC 9112 §3.2): IPv6 literals in brackets, port only when not 80.
    public var hostFieldValue: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? name : "\(name):\(port)"
    }
}
