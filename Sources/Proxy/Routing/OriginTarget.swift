import HTTPServer
import HTTPWire

/// Where a mount-form or embedded-form request goes: the origin URL and how to treat it. A value, since
/// every segment request makes one and its fields are mostly the request's own strings, shared.
struct OriginTarget: Sendable {
    /// The mount that matched, or nil for the embedded form: the router's shared copy, so a routed
    /// request costs one reference count for it rather than one per field.
    private let routedMount: RoutedMount?
    /// The mount that matched, or nil for the embedded form.
    var mount: Mount? { routedMount?.mount }
    /// The origin URL, kept as the parts it is made of when it is joined from a mount's base URL: a
    /// redirect writes them straight into its Location field, and only handlers that fetch make a string.
    let location: OriginLocation
    /// The proxy path the player asked for, percent-decoded; subtitle sets match masters against it.
    let proxyPath: String
    /// The proxy request target (raw path and query), as the player sent it.
    let proxyTarget: String

    init(mount: RoutedMount?, location: OriginLocation, proxyPath: String, proxyTarget: String) {
        self.routedMount = mount
        self.location = location
        self.proxyPath = proxyPath
        self.proxyTarget = proxyTarget
    }

    /// The origin URL: `http(s)://...` with the client's query untouched, or `file://` inside a directory
    /// mount. Made on each use; a handler that needs it more than once keeps it.
    var url: String { location.string }

    /// For a directory mount, the confined absolute file path.
    var filePath: String? {
        guard case .directory = routedMount?.mount.origin, case .whole(let url) = location, url.hasPrefix("file://") else { return nil }
        return FileConfinement.path(fromFileURL: url)
    }

    /// How non-playlist resources are answered.
    var segmentMode: Mount.SegmentMode { routedMount?.mount.segments ?? .redirect }

    /// Who the origin's answer was fetched for, as cache keys name it: the mount (with a digest of its
    /// injected headers) or the embedded form, which never carries injected headers.
    var cacheScope: String { routedMount?.cacheScope ?? "e" }
}

/// An origin URL, whole or as the parts of `base/rest?query` (no `?` without a query).
enum OriginLocation: Sendable {
    case whole(String)
    /// A mount's base URL, the raw path after the mount's name, and the client's query.
    case joined(base: String, rest: Substring, query: String?)

    /// The URL as one string.
    var string: String {
        switch self {
        case .whole(let url):
            return url
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

/// A configured mount, made once when the router is built and shared by every target routed to it.
final class RoutedMount: Sendable {
    let mount: Mount
    /// `m:NAME:DIGEST`, DIGEST the first 128 bits of the SHA-256 of the injected names and values (as
    /// far apart as the whole digest here, and short: disk cache keys are written into every file
    /// header): made once, and never the secrets themselves.
    let cacheScope: String

    init(_ mount: Mount) {
        self.mount = mount
        var injected: [UInt8] = []
        for header in mount.injectHeaders {
            for part in [header.name.lowercased(), header.value] {
                injected.append(contentsOf: "\(part.utf8.count):".utf8)
                injected.append(contentsOf: part.utf8)
            }
        }
        self.cacheScope = "m:\(mount.name):\(SHA256.hex(injected).prefix(32))"
    }
}
