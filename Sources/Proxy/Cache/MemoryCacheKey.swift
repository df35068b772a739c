import HTTPServer

/// Keys of the in-memory caches (masters, playlists, subtitles, timelines).
enum MemoryCacheKey {
    /// The key of an in-memory cache entry made from an origin URL fetched for `target`. It names
    /// everything that can change the bytes or who may see them: the URL form (the mount, with a digest
    /// of its injected headers, or the embedded form), the values of the mount's forwarded headers, the
    /// URL, and what the caller adds (`qualifiers`: subtitle set, track, proxy target). Without the form,
    /// a master fetched with a mount's credentials would be served to a request that carries none.
    static func make(_ url: String, target: OriginTarget, request: HTTPRequest, qualifiers: [String] = []) -> String {
        var key = ""
        func add(_ part: String) {
            // Length-prefixed, so no two different lists of parts join into the same key.
            key += String(part.utf8.count)
            key += ":"
            key += part
        }
        add(target.cacheScope)
        if let mount = target.mount {
            for name in mount.forwardHeaders {
                let values = request.headers.values(name)
                add(String(values.count))
                for value in values { add(value) }
            }
        }
        add(url)
        for qualifier in qualifiers { add(qualifier) }
        return key
    }
}
