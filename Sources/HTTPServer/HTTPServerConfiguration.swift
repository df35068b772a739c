/// Where the server listens and the limits it enforces on every connection.
public struct HTTPServerConfiguration: Sendable {
    /// An IPv4 or IPv6 literal, or "localhost" (127.0.0.1); "::" listens dual-stack on every address.
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 picks a free one (read it back from `HTTPServer.port`).
    public var port: Int = 8080
    /// The longest request line accepted; longer gets 414.
    public var maxRequestLineBytes = 8192
    /// The largest header section accepted (after the request line, through the empty line ending it); larger gets 431.
    public var maxHeaderBytes = 32768
    /// The most header fields accepted; more gets 431.
    public var maxHeaderCount = 100
    /// The largest request body accepted (Content-Length, or a chunked body's data); larger gets 413.
    /// Bodies are read past and discarded as they arrive, never held.
    public var maxBodyBytes = 1 << 20
    /// From the first byte of a request head to its end (and for a declared body to arrive); then 408 and close.
    public var headerTimeout: Duration = .seconds(10)
    /// How long a keep-alive connection may sit between requests before it is closed without a word.
    public var idleTimeout: Duration = .seconds(60)
    /// How long a response write may make no progress before the connection is dropped.
    public var writeTimeout: Duration = .seconds(30)
    /// Open connections allowed; connections over it are accepted, answered 503 and closed.
    public var maxConnections = 10_000
    /// The `Server` header value.
    public var serverName = "hls-subtitle-proxy"
    /// Event loop threads, each with its own epoll set and its own listening socket on the same
    /// address (SO_REUSEPORT: the kernel spreads new connections over them). A connection stays on the
    /// loop that accepted it. `maxConnections` counts across all of them.
    public var eventLoops = 1
    /// Where the server reports failures outside any one request (an event loop that stops).
    public var log = HTTPServerLog.discard

    /// The defaults.
    public init() {}

    /// Every field, each defaulting to the value `init()` gives.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        maxRequestLineBytes: Int = 8192,
        maxHeaderBytes: Int = 32768,
        maxHeaderCount: Int = 100,
        maxBodyBytes: Int = 1 << 20,
        headerTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(60),
        writeTimeout: Duration = .seconds(30),
        maxConnections: Int = 10_000,
        serverName: String = "hls-subtitle-proxy",
        eventLoops: Int = 1,
        log: HTTPServerLog = .discard
    ) {
        self.host = host
        self.port = port
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.writeTimeout = writeTimeout
        self.maxConnections = maxConnections
        self.serverName = serverName
        self.eventLoops = eventLoops
        self.log = log
    }
}

extension Duration {
    /// Whole milliseconds, at least 1, clamped so timer arithmetic on them cannot overflow.
    var clampedMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let max: Int64 = 1 << 40
        guard seconds < max / 1000 else { return max }
        guard seconds >= 0 else { return 1 }
        return Swift.max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
