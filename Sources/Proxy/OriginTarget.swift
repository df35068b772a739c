import HTTPServer

/// Where a mount-form or embedded-form request goes: the origin URL and how to treat it.
struct OriginTarget: Sendable {
    /// The mount that matched, or nil for the embedded form.
    var mount: Mount?
    /// The origin URL: `http(s)://...` with the client's query untouched, or `file://` inside a directory mount.
    var url: String
    /// The proxy path the player asked for, percent-decoded; subtitle sets match masters against it.
    var proxyPath: String
    /// The proxy request target (raw path and query), as the player sent it.
    var proxyTarget: String

    /// For a directory mount, the confined absolute file path.
    var filePath: String? {
        guard case .directory = mount?.origin, url.hasPrefix("file://") else { return nil }
        return FileConfinement.path(fromFileURL: url)
    }

    /// How non-playlist resources are answered.
    var segmentMode: Mount.SegmentMode { mount?.segments ?? .redirect }
}
