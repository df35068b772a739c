import HTTPServer

/// Where a mount-form or embedded-form request goes: the origin URL and how to treat it. Immutable and
/// shared by reference: a routed request hands it through planning and handlers, and each hand-off is
/// then one reference count rather than one per field.
final class OriginTarget: Sendable {
    /// The mount that matched, or nil for the embedded form: the router's shared copy, so a routed
    /// request costs one reference count for it rather than one per field.
    private let routedMount: RoutedMount?
    /// The mount that matched, or nil for the embedded form.
    var mount: Mount? { routedMount?.mount }
    /// The origin URL: `http(s)://...` with the client's query untouched, or `file://` inside a directory mount.
    let url: String
    /// The proxy path the player asked for, percent-decoded; subtitle sets match masters against it.
    let proxyPath: String
    /// The proxy request target (raw path and query), as the player sent it.
    let proxyTarget: String

    init(mount: RoutedMount?, url: String, proxyPath: String, proxyTarget: String) {
        self.routedMount = mount
        self.url = url
        self.proxyPath = proxyPath
        self.proxyTarget = proxyTarget
    }

    /// For a directory mount, the confined absolute file path.
    var filePath: String? {
        guard case .directory = routedMount?.mount.origin, url.hasPrefix("file://") else { return nil }
        return FileConfinement.path(fromFileURL: url)
    }

    /// How non-playlist resources are answered.
    var segmentMode: Mount.SegmentMode { routedMount?.mount.segments ?? .redirect }
}

/// A configured mount, made once when the router is built and shared by every target routed to it.
final class RoutedMount: Sendable {
    let mount: Mount

    init(_ mount: Mount) {
        self.mount = mount
    }
}
