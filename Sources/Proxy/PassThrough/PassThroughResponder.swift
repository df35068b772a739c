import HTTPServer
import HTTPWire

/// Mode `proxy` (SPEC "Classification and actions"): origin answers streamed through with the mount's headers, playlists
/// re-pointed at the proxy, and with the disk cache on, objects and ranges served from disk first.
struct PassThroughResponder: Sendable {
    let config: ProxyConfig
    let router: RequestRouter
    let fetcher: OriginFetcher
    /// The disk-cache path; nil when `cache.disk_directory` is unset or unusable.
    let diskCache: DiskCacheResponder?

    /// Origin fields a pass-through response carries on (RFC 9110 §8, §13.3); Content-Length is the
    /// server's to write from the body's length.
    static let passedOnFields: [HTTPFieldName] = [
        .contentType, .etag, .lastModified, .acceptRanges, .contentRange, .cacheControl, .expires, .contentEncoding,
    ]

    /// A GET or HEAD for an object stored whole on disk, answered without waiting (on the loop thread);
    /// nil when the disk cache is off or does not hold it whole, and the request goes through `serve`.
    func storedFile(_ target: OriginTarget, request: HTTPRequest) -> RouteResponse? {
        diskCache?.storedFile(target, request: request)
    }

    /// Mode `proxy`: streams the origin's answer through with the mount's headers. A single Range is
    /// forwarded; an origin that ignores it is sliced here. Playlists are read whole so their absolute
    /// origin URIs can be pointed back at the proxy. With the disk cache on, stored objects and ranges
    /// are served from disk first, and only what is missing is asked of the origin.
    func serve(_ target: OriginTarget, request: HTTPRequest) async throws -> RouteResponse {
        if let diskCache {
            if let cached = diskCache.cachedPassThrough(target, request: request) { return cached }
            switch try await diskCache.piecedPassThrough(target, request: request) {
            case .answered(let pieced):
                return pieced
            case .originChanged(let stream, let elapsed):
                return try await respond(stream, target: target, request: request, rangeForwarded: false, originMilliseconds: elapsed)
            case nil:
                break
            }
        }
        let looksLikePlaylist = Self.isPlaylistPath(target.proxyPath)
        // Range and If-Range carry nothing private and follow redirects; the mount's fields are bound
        // to its origin by `OriginFetcher.openStream`.
        var headers = HTTPHeaders()
        let range = request.headers[.range]
        if !looksLikePlaylist, let range, ByteRangeRequest.isForwardable(range) {
            headers[.range] = range
            if let validator = request.headers[.ifRange] { headers[.ifRange] = validator }
        }
        let (stream, elapsed) = try await fetcher.openStream(target, method: request.method, everyHopHeaders: headers, request: request)
        let answer = try await respond(stream, target: target, request: request, rangeForwarded: headers[.range] != nil, originMilliseconds: elapsed)
        if let diskCache, diskCache.isCacheable(target, request: request) { diskCache.cache.record { $0.misses += 1 } }
        return answer
    }

    /// The origin fields passed on to the client, with a Content-Type guessed from the path when the
    /// origin sent none.
    static func passedOnHeaders(_ stream: OriginStream, target: OriginTarget) -> HTTPHeaders {
        var responseHeaders = HTTPHeaders()
        for name in Self.passedOnFields {
            for value in stream.headers.values(name) { responseHeaders.add(name, value) }
        }
        if !responseHeaders.contains(.contentType) {
            responseHeaders[.contentType] = MediaType.forPath(target.proxyPath)
        }
        return responseHeaders
    }

    /// The answer to the client for an origin stream: a playlist read whole and re-pointed, a complete
    /// object or a range stored while it is relayed, or the stream relayed as is.
    func respond(_ stream: OriginStream, target: OriginTarget, request: HTTPRequest, rangeForwarded: Bool, originMilliseconds elapsed: Double) async throws -> RouteResponse {
        let responseHeaders = Self.passedOnHeaders(stream, target: target)
        let status = HTTPStatus(code: stream.status)
        let isPlaylist = Self.isPlaylistPath(target.proxyPath) || (responseHeaders[.contentType]?.lowercased().contains("mpegurl") ?? false)
        if isPlaylist, request.method == .get, (200..<300).contains(stream.status), stream.status != 206 {
            let body = try await Self.collect(stream, limit: config.limits.maxPlaylistBytes)
            let relocated = MasterRelocation(router: router, mounts: config.mounts)
                .proxyingAbsoluteURIs(body, mount: target.mount, requestedURL: target.url, finalURL: stream.finalURL)
            var headers = responseHeaders
            headers.remove(.contentRange)
            headers.remove(.etag)  // the bytes may differ from the origin's
            let response = HTTPResponse(status: status, headers: headers, bytes: relocated)
            return RouteResponse(route: .proxy, response: response, originMilliseconds: elapsed)
        }
        var response: HTTPResponse
        if !isPlaylist, let reader = try diskCache?.startDiskFill(stream, target: target, request: request, rangeForwarded: rangeForwarded, fields: responseHeaders) {
            response = DiskCacheResponder.cachedResponse(reader, request: request)
        } else if !isPlaylist, let piece = try diskCache?.startPieceFill(stream, target: target, request: request, fields: responseHeaders) {
            response = piece
        } else {
            response = Self.relayResponse(stream, status: status, headers: responseHeaders, request: request)
        }
        if let diskCache, diskCache.isCacheable(target, request: request) {
            response = DiskCacheResponder.counting(response, from: .origin, in: diskCache.cache)
        }
        return RouteResponse(route: .proxy, response: response, originMilliseconds: elapsed)
    }

    /// The streamed response for an origin answer: passed on as is, or sliced when the client asked for
    /// a range the origin did not honour (RFC 9110 §14.2 lets the origin ignore Range; we need not).
    static func relayResponse(_ stream: OriginStream, status: HTTPStatus, headers given: HTTPHeaders, request: HTTPRequest) -> HTTPResponse {
        var headers = given
        let isHead = request.method == .head
        // For HEAD the framing has no body, so the length is the one the origin declared.
        let length = isHead ? stream.headers[.contentLength].flatMap(OriginStream.contentLength) : stream.bodyLength
        if isHead {
            stream.cancel()
            return HTTPResponse(status: status, headers: headers, body: .stream(length: length, producer: { _ in }))
        }
        var skip = 0
        var take = length
        var status = status
        if status == .ok, let length, let range = request.headers[.range] {
            headers[.acceptRanges] = headers[.acceptRanges] ?? "bytes"
            switch ByteRangeRequest.outcome(header: range, length: length) {
            case .whole:
                break
            case .partial(let lower, let upper):
                status = .partialContent
                headers[.contentRange] = "bytes \(lower)-\(upper)/\(length)"
                skip = lower
                take = upper - lower + 1
            case .unsatisfiable:
                stream.cancel()
                headers[.contentRange] = "bytes */\(length)"
                return HTTPResponse(status: .rangeNotSatisfiable, headers: headers, body: .empty)
            }
        }
        if status == .rangeNotSatisfiable || status.code == 204 || status.code == 304 {
            stream.cancel()
            return HTTPResponse(status: status, headers: headers, body: .empty)
        }
        let (start, bodyLength) = (skip, take)
        return HTTPResponse(status: status, headers: headers, body: .stream(length: bodyLength, producer: { writer in
            try await relay(stream, skip: start, take: bodyLength, to: writer)
        }))
    }

    /// Copies the origin body to the client, dropping `skip` bytes first and stopping after `take`.
    /// Whatever ends the copy (done, client gone, origin failure) ends the origin transfer too.
    static func relay(_ stream: OriginStream, skip: Int, take: Int?, to writer: HTTPBodyWriter) async throws {
        defer { stream.cancel() }
        var toSkip = skip
        var remaining = take ?? Int.max
        while remaining > 0, let piece = try await stream.next() {
            var slice = piece[...]
            if toSkip > 0 {
                let dropped = min(toSkip, slice.count)
                slice = slice.dropFirst(dropped)
                toSkip -= dropped
            }
            if slice.count > remaining { slice = slice.prefix(remaining) }
            guard !slice.isEmpty else { continue }
            remaining -= slice.count
            try await writer.write(slice.count == piece.count ? piece : Array(slice))
        }
        if take != nil, remaining > 0 {
            throw OriginError.badResponse("origin body ended \(remaining) bytes short")
        }
    }

    /// The whole body of a stream, refused past `limit` bytes.
    static func collect(_ stream: OriginStream, limit: Int) async throws -> [UInt8] {
        defer { stream.cancel() }
        var body: [UInt8] = []
        while let piece = try await stream.next() {
            guard piece.count <= limit - body.count else { throw OriginError.tooLarge(limit: limit) }
            body.append(contentsOf: piece)
        }
        return body
    }

    /// Paths served as playlists in pass-through (read whole, URIs re-pointed).
    static func isPlaylistPath(_ path: String) -> Bool {
        URLReference.hasExtension(path, in: ["m3u8", "m3u"])
    }
}
