/// The parser's size limits, taken from the configuration once.
struct RequestLimits: Sendable {
    /// Longest request line (without its line ending); 414 beyond.
    var maxRequestLineBytes: Int
    /// Largest header section (everything after the request line, through the empty line ending it); 431 beyond.
    var maxHeaderBytes: Int
    /// Most header fields; 431 beyond.
    var maxHeaderCount: Int
    /// Largest Content-Length; 413 beyond.
    var maxBodyBytes: Int

    init(_ configuration: HTTPServerConfiguration) {
        maxRequestLineBytes = max(16, configuration.maxRequestLineBytes)
        maxHeaderBytes = max(0, configuration.maxHeaderBytes)
        maxHeaderCount = max(0, configuration.maxHeaderCount)
        maxBodyBytes = max(0, configuration.maxBodyBytes)
    }
}
