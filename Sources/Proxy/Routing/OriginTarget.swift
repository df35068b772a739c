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
    /// The key `MemoryCacheKey.make(target:request:)` gives this target, kept with it when that key is
    /// the same for every request (the mount forwards no header): `MasterTargetRoutes` sets it on the
    /// masters it keeps, so each subtitle request stops writing its master's key two or three times.
    /// Nil otherwise; the key is then made per request. Boxed: a reference is half an optional
    /// String's size, and every routed request copies this struct (an optional String here added
    /// about 190 instructions to a redirect, the box about 80).
    var requestIndependentKey: String? {
        get { keptKey?.key }
        set { keptKey = newValue.map(KeptKey.init) }
    }
    private var keptKey: KeptKey?

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
        guard case .directory = routedMount?.mount.origin, case .file(let path) = location else { return nil }
        return path
    }

    /// How non-playlist resources are answered.
    var segmentMode: Mount.SegmentMode { routedMount?.mount.segments ?? .redirect }

    /// Who the origin's answer was fetched for, as cache keys name it: the mount (with a digest of its
    /// injected headers) or the embedded form, which never carries injected headers.
    var cacheScope: String { routedMount?.cacheScope ?? "e" }
}

/// A master's request-independent cache key (`OriginTarget.requestIndependentKey`), shared by the
/// copies of its target.
private final class KeptKey: Sendable {
    let key: String

    init(_ key: String) {
        self.key = key
    }
}
