import HLS

extension MasterRelocation {
    /// A playlist passed through in `proxy` mode with every http(s) URI that a mount or the allowlist
    /// covers turned into its proxy path, so segments, keys and maps keep coming through the proxy (and
    /// get their injected headers). Path-absolute and scheme-relative URIs are resolved against the
    /// playlist's final URL first; relative URIs already resolve against the proxy URL and are left alone
    /// unless the origin redirected the playlist to another directory. Not a playlist: returned unchanged.
    func proxyingAbsoluteURIs(_ bytes: [UInt8], mount: Mount?, requestedURL: String, finalURL: String) -> [UInt8] {
        guard let playlist = try? Playlist.parse(bytes) else { return bytes }
        return rewriting(playlist, original: bytes, requestedURL: requestedURL, finalURL: finalURL, mount: mount, policy: .proxied)
    }
}
