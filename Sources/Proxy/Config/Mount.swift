/// An origin served under `/{name}/...` (JSON `mounts.NAME`).
public struct Mount: Sendable, Hashable {
    /// First path segment of the mount's URLs: `[A-Za-z0-9_-]`, not one of `reservedNames`.
    public var name: String
    /// Where requests under the mount go.
    public var origin: Origin
    /// What happens to segments and everything else that is not rewritten (`segments`).
    public var segments: SegmentMode
    /// Headers added to every origin request (`inject_headers`), sorted by name.
    public var injectHeaders: [Header]
    /// Client request headers passed on to the origin (`forward_headers`), as written.
    public var forwardHeaders: [String]

    /// Path segments the proxy answers itself, so no mount may take them (compared case-insensitively).
    public static let reservedNames: Set<String> = ["healthz", "readyz", "metrics", "http", "https", "_hls-proxy"]

    /// Makes a mount; by default segments are redirected for an http(s) origin and served for a directory.
    public init(
        name: String, origin: Origin, segments: SegmentMode? = nil, injectHeaders: [Header] = [],
        forwardHeaders: [String] = []
    ) {
        self.name = name
        self.origin = origin
        self.segments = segments ?? origin.defaultSegmentMode
        self.injectHeaders = injectHeaders
        self.forwardHeaders = forwardHeaders
    }

    /// Where a mount's requests go.
    public enum Origin: Sendable, Hashable {
        /// An `http(s)://host[:port][/path]` base, lowercased scheme and host, with no trailing slash.
        case http(baseURL: String)
        /// An absolute, standardized directory path; requests are confined to it.
        case directory(path: String)

        /// Redirecting to a local file is impossible, so directories are always served.
        var defaultSegmentMode: SegmentMode {
            switch self {
            case .http: .redirect
            case .directory: .proxy
            }
        }
    }

    /// What the proxy does with a request it does not rewrite.
    public enum SegmentMode: String, Sendable, Hashable, CaseIterable {
        /// 302 to the origin URL, as an in-app resource loader would (the default for http origins).
        case redirect
        /// Fetch and stream the body through, with injected headers.
        case proxy
    }

    /// One header added to origin requests.
    public struct Header: Sendable, Hashable {
        /// An RFC 9110 token.
        public var name: String
        /// The value, `${VAR}` already expanded; never holds CR, LF or NUL.
        public var value: String

        /// Makes a header.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }
}
