import HTTPWire

extension HTTPFieldName {
    /// What the proxy did with a request (SPEC "Operations"): on every response it gives.
    static let hlsProxyRoute = HTTPFieldName("X-HLS-Proxy-Route")
}
