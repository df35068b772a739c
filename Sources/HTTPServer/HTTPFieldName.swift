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

// MARK: - Names (RFC 9110 unless noted)

extension HTTPFieldName {
    public static let accept = HTTPFieldName("Accept")
    public static let acceptEncoding = HTTPFieldName("Accept-Encoding")
    public static let acceptRanges = HTTPFieldName("Accept-Ranges")
    public static let allow = HTTPFieldName("Allow")
    public static let cacheControl = HTTPFieldName("Cache-Control")  // RFC 9111 §5.2
    public static let connection = HTTPFieldName("Connection")
    public static let contentEncoding = HTTPFieldName("Content-Encoding")
    public static let contentLength = HTTPFieldName("Content-Length")
    public static let contentRange = HTTPFieldName("Content-Range")
    public static let contentType = HTTPFieldName("Content-Type")
    public static let etag = HTTPFieldName("ETag")
    public static let expect = HTTPFieldName("Expect")
    public static let expires = HTTPFieldName("Expires")  // RFC 9111 §5.3
    public static let host = HTTPFieldName("Host")
    public static let ifNoneMatch = HTTPFieldName("If-None-Match")
    public static let ifRange = HTTPFieldName("If-Range")
    public static let keepAlive = HTTPFieldName("Keep-Alive")  // RFC 9112 §C.2.2, obsolete but still sent
    public static let lastModified = HTTPFieldName("Last-Modified")
    public static let location = HTTPFieldName("Location")
    public static let origin = HTTPFieldName("Origin")  // RFC 6454 §7
    public static let proxyAuthenticate = HTTPFieldName("Proxy-Authenticate")
    public static let proxyAuthorization = HTTPFieldName("Proxy-Authorization")
    public static let proxyConnection = HTTPFieldName("Proxy-Connection")  // never standard, still sent
    public static let range = HTTPFieldName("Range")
    public static let retryAfter = HTTPFieldName("Retry-After")
    public static let te = HTTPFieldName("TE")
    public static let trailer = HTTPFieldName("Trailer")
    public static let transferEncoding = HTTPFieldName("Transfer-Encoding")
    public static let upgrade = HTTPFieldName("Upgrade")
    public static let userAgent = HTTPFieldName("User-Agent")
    public static let vary = HTTPFieldName("Vary")
}

// MARK: - CORS (Fetch standard §3.2.3)

extension HTTPFieldName {
    public static let accessControlAllowHeaders = HTTPFieldName("Access-Control-Allow-Headers")
    public static let accessControlAllowMethods = HTTPFieldName("Access-Control-Allow-Methods")
    public static let accessControlAllowOrigin = HTTPFieldName("Access-Control-Allow-Origin")
    public static let accessControlExposeHeaders = HTTPFieldName("Access-Control-Expose-Headers")
    public static let accessControlMaxAge = HTTPFieldName("Access-Control-Max-Age")
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
    public mutating func add(_ name: HTTPFieldName, _ value: String) {
        add(name.staticName, value)
    }

    /// Appends a field whose value is given as bytes, as `add(_:_:)` does.
    public mutating func add(_ name: HTTPFieldName, bytes value: UnsafeBufferPointer<UInt8>) {
        add(name.staticName, bytes: value)
    }
}
