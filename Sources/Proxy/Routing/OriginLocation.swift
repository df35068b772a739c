import HTTPServer
import HTTPWire

/// An origin URL, whole or as the parts of `base/rest?query` (no `?` without a query).
enum OriginLocation: Sendable {
    case whole(String)
    /// A mount's base URL, the raw path after the mount's name, and the client's query.
    case joined(base: String, rest: Substring, query: String?)
    /// A directory mount's confined absolute file path: its `file://` URL is made only when asked for
    /// (a file request opens the path and never needs it).
    case file(path: String)

    /// The URL as one string.
    var string: String {
        switch self {
        case .whole(let url):
            return url
        case .file(let path):
            return FileConfinement.fileURL(path: path)
        case .joined(let base, let rest, let query):
            var url = String()
            url.reserveCapacity(base.utf8.count + 1 + rest.utf8.count + (query.map { $0.utf8.count + 1 } ?? 0))
            url += base
            url += "/"
            url += rest
            if let query {
                url += "?"
                url += query
            }
            return url
        }
    }

    /// Adds the URL as field `name`'s value: a joined URL is assembled in one buffer and copied into the
    /// list, so no String is made (every redirect answer carries one; see `HTTPHeaders.add(_:bytesOf:)`).
    func add(as name: HTTPFieldName, to headers: inout HTTPHeaders) {
        switch self {
        case .whole(let url):
            headers.add(name, url)
        case .file(let path):
            headers.add(name, FileConfinement.fileURL(path: path))
        case .joined(let base, let rest, let query):
            var url = GrowableByteBuffer(capacity: base.utf8.count + 1 + rest.utf8.count + (query.map { $0.utf8.count + 1 } ?? 0))
            url.append(utf8: base)
            url.append("/")
            url.append(utf8: rest)
            if let query {
                url.append("?")
                url.append(utf8: query)
            }
            headers.add(name, bytesOf: url)
        }
    }
}
