import HTTPWire
extension HTTPMethod {
    /// RFC 9110 §9.2.2: a request that may be sent twice with the effect of once.
    var isIdempotent: Bool {
        self == .get || self == .head || self == .put || self == .delete || self == .options || self == .trace
    }
}
