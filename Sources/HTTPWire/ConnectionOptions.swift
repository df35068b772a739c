/// The `close` and `keep-alive` options of Connection fields (RFC 9110 §7.6.1: comma-separated,
/// case-insensitive tokens) and what they mean for the connection. Requests the server reads and
/// responses the client reads are judged by this one rule.
package struct ConnectionOptions {
    package var close = false
    package var keepAlive = false

    /// Options from every Connection value in `headers`.
    package init(_ headers: HTTPHeaders) {
        for value in headers.values("Connection") { add(value) }
    }

    package init() {}

    /// Notes the options in one Connection field value.
    package mutating func add(_ value: String) {
        for token in value.split(separator: ",") {
            let option = String(token.trimmingOWS())
            if HTTPHeaders.equalNames(option, "close") { close = true }
            if HTTPHeaders.equalNames(option, "keep-alive") { keepAlive = true }
        }
    }

    /// RFC 9112 §9.3: an HTTP/1.1 connection persists unless `close` is given; an HTTP/1.0 one only
    /// with `keep-alive` (and no `close`).
    package func persist(_ version: HTTPVersion) -> Bool {
        if close { return false }
        if version.major == 1 && version.minor >= 1 { return true }
        return keepAlive
    }
}
