/// Who named a track's source, which decides how far the proxy trusts it when fetching (issue SPEC "SSRF").
enum TrackProvenance: Sendable, Hashable {
    /// Written in the config (or a template of it): the operator's choice, as today.
    case configured
    /// Answered by a subtitle set's `tracks_url`: held to the embedded rules at fetch time.
    case backend
    /// Carried by a signed token: trusted like configured sources, but never a private address unless
    /// `embedded.allow_private_networks` says so.
    case signed
}
