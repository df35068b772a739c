import HLS
import HTTPServer
import HTTPWire

/// A media playlist found where a master was expected, for a subtitle set with `wrap_media_playlists`:
/// served inside a synthesized one-variant master that carries the set's SUBTITLES group. The variant
/// points back at the same path with the reserved query parameter `_hls_proxy=media`, which serves the
/// media playlist itself and is never wrapped again.
struct MediaPlaylistWrapper: Sendable {
    let config: ProxyConfig
    let router: RequestRouter
    let fetcher: OriginFetcher
    let logger: ProxyLogger

    /// How many of the first segments are measured when the playlist has no EXT-X-BITRATE.
    static let measuredSegments = 3

    /// The synthesized master for a media playlist fetched from `target`; its variant's BANDWIDTH from
    /// EXT-X-BITRATE, else the first segments' sizes, else the set's `wrap_bandwidth`.
    func wrap(
        _ playlist: Playlist, media: MediaPlaylist, fetchedFrom finalURL: String, target: OriginTarget, set: SubtitleSet,
        tracks: ResolvedTracks, subtitleURI: (TrackConfig) -> String, request: HTTPRequest
    ) async throws -> [UInt8] {
        let (bandwidth, source) = try await bandwidth(of: playlist, media: media, finalURL: finalURL, target: target, set: set, request: request)
        logger.debug("wrapped media playlist", [
            ("path", target.proxyPath), ("set", set.name), ("bandwidth", String(bandwidth)), ("bandwidth_source", source.rawValue),
        ])
        let master = WrappedMaster.make(bandwidth: bandwidth, variantURI: WrapMarker.variantURI(forTarget: target.proxyTarget))
        return try set.rewriteReporting(master, tracks: tracks.tracks, subtitleURI: subtitleURI).bytes
    }

    /// BANDWIDTH and where it came from. A sliding window (no type, no ENDLIST: RFC 8216 §6.2.1) lists
    /// other segments from one reload to the next, so what is read from them differs between instances
    /// and moments; the wrapped master must not (SPEC: any instance answers alike). There a set's own
    /// `wrap_bandwidth` (one other than the default) comes first, and a read value is rounded up to
    /// `WrappedMaster.coarseBandwidth`'s steps.
    func bandwidth(
        of playlist: Playlist, media: MediaPlaylist, finalURL: String, target: OriginTarget, set: SubtitleSet, request: HTTPRequest
    ) async throws -> (Int, WrappedMaster.BandwidthSource) {
        let sliding = media.playlistType == nil && !media.hasEndList
        if sliding, set.wrapBandwidth != SubtitleSet.defaultWrapBandwidth { return (set.wrapBandwidth, .configured) }
        func settled(_ bits: Int) -> Int { sliding ? WrappedMaster.coarseBandwidth(bits) : bits }
        if let bits = WrappedMaster.bitrateBandwidth(playlist) { return (settled(bits), .bitrateTag) }
        var measured: [(bytes: Int, duration: Double)] = []
        for segment in media.segments.prefix(Self.measuredSegments) {
            guard let bytes = try await size(of: segment, finalURL: finalURL, target: target, request: request) else { continue }
            measured.append((bytes, segment.duration))
        }
        if let bits = WrappedMaster.measuredBandwidth(measured) { return (settled(bits), .measuredSegments) }
        return (set.wrapBandwidth, .configured)
    }

    /// A segment's size: its EXT-X-BYTERANGE length, else the Content-Length of a HEAD; nil when neither
    /// can be had (a refused host, an error status, no length). Only a shed fetch is thrown.
    private func size(of segment: MediaSegment, finalURL: String, target: OriginTarget, request: HTTPRequest) async throws -> Int? {
        if let range = segment.byteRange { return range.length }
        // A directory mount resolves path-absolute URIs against its root, as the player gets them.
        guard let url = URLReference.resolve(segment.uri, against: finalURL, mount: target.mount), fetcher.mayFetchDerived(url, master: target) else { return nil }
        do {
            let (answer, _) = try await fetcher.fetch(url, kind: "segment", maxBytes: config.limits.maxProxyBodyBytes, mount: target.mount, request: request, method: .head)
            guard (200..<300).contains(answer.status) else { return nil }
            return answer.contentLength
        } catch let shed as OriginError where shed.isShed {
            throw shed
        } catch {
            logger.debug("wrapped media playlist: segment size unknown", [("path", target.proxyPath), ("error", String(describing: error))])
            return nil
        }
    }

    /// For a request carrying the marker, the target without it (the media playlist a wrapped master
    /// points at); nil for any other request. A malformed marker is a 400.
    func variantTarget(of target: OriginTarget) throws(ProxyError) -> OriginTarget? {
        let (path, query) = splitTarget(target.proxyTarget)
        guard let kept = try WrapMarker.strip(query) else { return nil }
        guard case .origin(let media) = try router.route(rawPath: path, query: kept) else {
            throw .notFound("the wrapped variant names no origin")
        }
        return media
    }

    /// The request with the marker: the media playlist itself, fetched without the marker, its URIs
    /// re-based after a redirect and its absolute origin URIs pointed at the proxy, as other playlists.
    func serveMedia(_ target: OriginTarget, cacheControl: String, request: HTTPRequest) async throws -> RouteResponse {
        let (fetched, originMilliseconds) = try await fetcher.cachedPlaylist(target.url, kind: "media", for: target, request: request)
        guard (200..<300).contains(fetched.status) else { throw OriginFetcher.originFailure(fetched.status, what: "media playlist") }
        let relocation = MasterRelocation(router: router, mounts: config.mounts)
        let body = relocation.proxyingAbsoluteURIs(fetched.body, mount: target.mount, requestedURL: target.url, finalURL: fetched.finalURL)
        var headers = HTTPHeaders()
        headers[.contentType] = fetched.contentType ?? MediaType.playlist
        headers[.cacheControl] = cacheControl
        logger.debug("classified body", [("path", target.proxyPath), ("body", "media playlist"), ("action", "served for a wrapped master")])
        return RouteResponse(route: .playlist, response: HTTPResponse(status: .ok, headers: headers, bytes: body), originMilliseconds: originMilliseconds)
    }
}

/// The reserved query parameter `_hls_proxy` of a wrapped master's variant URI.
enum WrapMarker {
    static let name = "_hls_proxy"
    static let value = "media"

    /// The query without the marker (nil when nothing is left), or nil when the query has no marker.
    /// A marker with any value but `media`, or given twice, is the client's mistake: 400.
    static func strip(_ query: String?) throws(ProxyError) -> String?? {
        guard let query, query.contains(name) else { return nil }
        var kept: [Substring] = []
        var found = 0
        for item in query.split(separator: "&", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.first == Substring(name) else {
                kept.append(item)
                continue
            }
            found += 1
            guard parts.count == 2, parts[1] == Substring(value) else {
                throw .badRequest("query parameter \(name) is reserved by the proxy and must be \"\(value)\"")
            }
        }
        guard found > 0 else { return nil }
        guard found == 1 else { throw .badRequest("query parameter \(name) is given more than once") }
        return .some(kept.isEmpty ? nil : kept.joined(separator: "&"))
    }

    /// The variant URI of a wrapped master at `target` (raw path and query): its last path segment with
    /// the query and the marker, so it resolves against the master to the same path (RFC 3986 §5.2).
    static func variantURI(forTarget target: String) -> String {
        let (path, query) = splitTarget(target)
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        let marker = "\(name)=\(value)"
        // RFC 3986 §4.2: a first segment with a ":" would read as a scheme, so it goes behind "./".
        let reference = last.isEmpty || last.contains(":") ? "./" + last : last
        return reference + "?" + (query.map { $0.isEmpty ? marker : $0 + "&" + marker } ?? marker)
    }
}
