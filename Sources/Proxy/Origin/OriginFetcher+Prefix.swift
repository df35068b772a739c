import HTTPServer
import HTTPWire

extension OriginFetcher {
    /// A body's first bytes, and whether they are all of it.
    struct FetchedPrefix {
        var status: Int
        var bytes: [UInt8]
        /// True when the transfer ended here: `bytes` is the whole body (or there was none to read).
        var isWhole: Bool
    }

    /// Reads `url`'s body only as far as needed: after each piece that at least doubles what arrived,
    /// `settles` is asked whether the bytes so far are enough; once they are, the transfer is ended (the
    /// rest never crosses the network). The whole body otherwise, within `maxBytes`. Vetted as `fetch`
    /// is (fields, redirects, addresses, a directory mount's confinement), never coalesced with another
    /// fetch, and bounded by `timeouts.origin_seconds` overall, as a buffered fetch is. A status outside
    /// 2xx comes back without its body. The first video segment's PTS is read this way: a 2 MB
    /// segment's timestamps are in its first few kilobytes.
    func fetchPrefix(
        _ url: String, kind: String, maxBytes: Int, mount: Mount?, request: HTTPRequest, settles: ([UInt8]) -> Bool
    ) async throws -> FetchedPrefix {
        let originRequest = try await vettedRequest(url, maxBytes: maxBytes, mount: mount, request: request)
        let started = MonotonicTime.now()
        defer { metrics.recordOriginFetch(kind: kind, seconds: Self.milliseconds(started.duration(to: .now())) / 1000) }
        do {
            let stream = try await origin.stream(originRequest)
            defer { stream.cancel() }
            var prefix = FetchedPrefix(status: stream.status, bytes: [], isWhole: true)
            if (200..<300).contains(stream.status) {
                let deadline = started + ConfigSeconds.duration(config.timeouts.originTotal)
                var nextCheck = 0
                while let piece = try await stream.next() {
                    prefix.bytes.append(contentsOf: piece)
                    guard prefix.bytes.count <= maxBytes else { throw OriginError.tooLarge(limit: maxBytes) }
                    if prefix.bytes.count >= nextCheck {
                        if settles(prefix.bytes) {
                            prefix.isWhole = false
                            break
                        }
                        nextCheck = prefix.bytes.count * 2
                    }
                    guard MonotonicTime.now() < deadline else { throw OriginError.timeout }
                }
            }
            logger.debug("origin fetch", [
                ("url", ProxyLogger.redactedURL(url)), ("kind", kind), ("status", String(stream.status)),
                ("ms", Self.debugMilliseconds(Self.milliseconds(started.duration(to: .now())))),
                ("bytes", String(prefix.bytes.count)), ("whole", prefix.isWhole ? "true" : "false"),
            ])
            return prefix
        } catch {
            logOriginFailure(url, kind: kind, started: started, error: error)
            throw error
        }
    }
}
