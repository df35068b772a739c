/// The header fields the server itself acts on (in requests) or writes (in responses), told apart by
/// their raw name bytes: length first, then an ASCII case-insensitive compare. Every request and
/// response passes each of its fields through this, and bytes are far cheaper than Strings.
package enum FramingFieldName {
    case host, date, server, contentLength, transferEncoding, connection, other

    package init(_ name: UnsafeBufferPointer<UInt8>) {
        switch name.count {
        case 4 where HTTPHeaders.equalNames(name, "Host"): self = .host
        case 4 where HTTPHeaders.equalNames(name, "Date"): self = .date
        case 6 where HTTPHeaders.equalNames(name, "Server"): self = .server
        case 10 where HTTPHeaders.equalNames(name, "Connection"): self = .connection
        case 14 where HTTPHeaders.equalNames(name, "Content-Length"): self = .contentLength
        case 17 where HTTPHeaders.equalNames(name, "Transfer-Encoding"): self = .transferEncoding
        default: self = .other
        }
    }

    /// Fields the server writes itself: a handler's field of this name is not sent.
    package var isServerOwned: Bool {
        switch self {
        case .date, .contentLength, .transferEncoding, .connection: return true
        case .host, .server, .other: return false
        }
    }
}
