/// A header field name written in the source. Field names are open-ended (RFC 9110 §16.3), so this is
/// a struct with `static let`s rather than a closed enum, and names compare case-insensitively
/// (RFC 9110 §5.1), as `HTTPHeaders` looks them up.
public struct HTTPFieldName: Sendable, CustomStringConvertible {
    /// The name as written: a token by construction, so adding it skips the byte-by-byte check.
    public let staticName: StaticString
    /// The name as a string, for lookups and for lists of fields kept as strings.
    public let text: String

    /// A name written in the source; it must be a token (debug builds assert it when it is added).
    public init(_ name: StaticString) {
        staticName = name
        text = name.description
    }

    public var description: String { text }
}

extension HTTPFieldName: Equatable {
    /// RFC 9110 §5.1: field names are case-insensitive.
    public static func == (a: HTTPFieldName, b: HTTPFieldName) -> Bool {
        HTTPHeaders.equalNames(a.text, b.text)
    }
}

// MARK: - Names

extension HTTPFieldName {
    /// RFC 9110 §12.5.1.
    public static let accept = HTTPFieldName("Accept")
    /// RFC 9110 §12.5.3.
    public static let acceptEncoding = HTTPFieldName("Accept-Encoding")
    /// RFC 9110 §14.3.
    public static let acceptRanges = HTTPFieldName("Accept-Ranges")
    /// RFC 9110 §10.2.1.
    public static let allow = HTTPFieldName("Allow")
    /// RFC 9111 §5.2.
    public static let cacheControl = HTTPFieldName("Cache-Control")
    /// RFC 9110 §7.6.1.
    public static let connection = HTTPFieldName("Connection")
    /// RFC 9110 §8.4.
    public static let contentEncoding = HTTPFieldName("Content-Encoding")
    /// RFC 9110 §8.6.
    public static let contentLength = HTTPFieldName("Content-Length")
    /// RFC 9110 §14.4.
    public static let contentRange = HTTPFieldName("Content-Range")
    /// RFC 9110 §8.3.
    public static let contentType = HTTPFieldName("Content-Type")
    /// RFC 9110 §8.8.3.
    public static let etag = HTTPFieldName("ETag")
    /// RFC 9110 §10.1.1.
    public static let expect = HTTPFieldName("Expect")
    /// RFC 9111 §5.3.
    public static let expires = HTTPFieldName("Expires")
    /// RFC 9110 §7.2.
    public static let host = HTTPFieldName("Host")
    /// RFC 9110 §13.1.2.
    public static let ifNoneMatch = HTTPFieldName("If-None-Match")
    /// RFC 9110 §13.1.5.
    public static let ifRange = HTTPFieldName("If-Range")
    /// HTTP/1.0's connection field, hop-by-hop (RFC 9110 §7.6.1).
    public static let keepAlive = HTTPFieldName("Keep-Alive")
    /// RFC 9110 §8.8.2.
    public static let lastModified = HTTPFieldName("Last-Modified")
    /// RFC 9110 §10.2.2.
    public static let location = HTTPFieldName("Location")
    /// RFC 6454 §7.
    public static let origin = HTTPFieldName("Origin")
    /// RFC 9110 §11.7.1.
    public static let proxyAuthenticate = HTTPFieldName("Proxy-Authenticate")
    /// RFC 9110 §11.7.2.
    public static let proxyAuthorization = HTTPFieldName("Proxy-Authorization")
    /// Never standard, still sent; hop-by-hop.
    public static let proxyConnection = HTTPFieldName("Proxy-Connection")
    /// RFC 9110 §14.2.
    public static let range = HTTPFieldName("Range")
    /// RFC 9110 §10.2.3.
    public static let retryAfter = HTTPFieldName("Retry-After")
    /// RFC 9110 §10.1.4.
    public static let te = HTTPFieldName("TE")
    /// RFC 9110 §6.6.2.
    public static let trailer = HTTPFieldName("Trailer")
    /// RFC 9112 §6.1.
    public static let transferEncoding = HTTPFieldName("Transfer-Encoding")
    /// RFC 9110 §7.8.
    public static let upgrade = HTTPFieldName("Upgrade")
    /// RFC 9110 §10.1.5.
    public static let userAgent = HTTPFieldName("User-Agent")
    /// RFC 9110 §12.5.5.
    public static let vary = HTTPFieldName("Vary")
}

// MARK: - CORS (the Fetch standard)

extension HTTPFieldName {
    /// Fetch §3.2.3.
    public static let accessControlAllowHeaders = HTTPFieldName("Access-Control-Allow-Headers")
    /// Fetch §3.2.3.
    public static let accessControlAllowMethods = HTTPFieldName("Access-Control-Allow-Methods")
    /// Fetch §3.2.3.
    public static let accessControlAllowOrigin = HTTPFieldName("Access-Control-Allow-Origin")
    /// Fetch §3.2.3.
    public static let accessControlExposeHeaders = HTTPFieldName("Access-Control-Expose-Headers")
    /// Fetch §3.2.3.
    public static let accessControlMaxAge = HTTPFieldName("Access-Control-Max-Age")
    /// Fetch §3.2.2.
    public static let accessControlRequestHeaders = HTTPFieldName("Access-Control-Request-Headers")
}

// MARK: - HTTPHeaders by field name

extension HTTPHeaders {
    /// The first value of `name`, or nil. Setting replaces every field of that name (nil removes them).
    public subscript(name: HTTPFieldName) -> String? {
        get { self[name.text] }
        set { self[name.text] = newValue }
    }

    /// Every value of `name`, in order.
    public func values(_ name: HTTPFieldName) -> [String] {
        values(name.text)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: HTTPFieldName) -> Bool {
        contains(name.text)
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: HTTPFieldName) {
        remove(name.text)
    }

    /// Appends a field, keeping any others of the same name; the name is a token by construction.
    /// Inlinable, so a call site reads only the static name and never retains the string form.
    @inlinable public mutating func add(_ name: HTTPFieldName, _ value: String) {
        add(name.staticName, value)
    }

    /// Appends a field whose value is given as bytes, as `add(_:_:)` does.
    public mutating func add(_ name: HTTPFieldName, bytes value: UnsafeBufferPointer<UInt8>) {
        add(name.staticName, bytes: value)
    }
}
