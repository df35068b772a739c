/// An HTTP request method (RFC 9110 §9). Open-ended: any token is a method; the known ones are `static let`s.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token exactly as sent (methods are case-sensitive, RFC 9110 §9.1).
    public var rawValue: String

    /// Wraps a method token.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The token itself.
    public var description: String { rawValue }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let head = HTTPMethod(rawValue: "HEAD")
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let patch = HTTPMethod(rawValue: "PATCH")
    public static let connect = HTTPMethod(rawValue: "CONNECT")
    public static let trace = HTTPMethod(rawValue: "TRACE")

    /// The method for a token from the wire; the common ones share the static values' storage.
    package init(token: Slice<UnsafeBufferPointer<UInt8>>) {
        let bytes = UnsafeBufferPointer(rebasing: token)
        switch token.count {
        case 3 where bytes.hasSameBytes(as: "GET"): self = .get
        case 4 where bytes.hasSameBytes(as: "HEAD"): self = .head
        default: self.init(rawValue: String(decoding: token, as: UTF8.self))
        }
    }
}
