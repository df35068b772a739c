import HTTPServer
import HTTPWire

extension OriginFetcher {
    /// A body's first bytes, and what they settled, if they did.
    struct FetchedPrefix<Answer> {
        var status: Int
        var bytes: [UInt8]
        /// What `settles` made of `bytes`; nil when it never could: `bytes` is then the whole body (or
        /// there was none to read).
        var settled: Answer?
        var isWhole: Bool { settled == nil }
    }

    /// The most of a body left unread that `fetchPrefix` still reads, in the background, once the bytes
    /// it needs have come: its connection is then kept for the next fetch. A 100 kB segment has usually
    /// arrived whole by the time its first piece is read; more than this is cut off, and so is any rest
    /// whose connection the origin closes after it (`Connection: close`, HTTP/1.0, a body ended by close).
    static let drainedRemainder = 256 * 1024
    /// How long that background read may take before the transfer is ended after all (256 kB at
    /// 4 Mbit/s): an origin that stalls on the rest does not keep its slot until the deadline.
    static let drainTime = Duration.milliseconds(500)

    /// Whether a background read of a rest may keep its exchange's slot: not when three quarters of
    /// `limits.max_origin_exchanges` are taken, where a request's next fetch could be shed for it.
    var slotsToSpare: Bool {
        let slots = origin.exchangeSlots
        return slots.inFlight * 4 < slots.limit * 3
    }

    /// Reads `url`'s body only as far as needed: after each piece that at least doubles what arrived,
    /// `settles` is asked for its answer from the bytes so far; once it gives one, the transfer is ended
    /// (the rest is not read: what crossed the network is what the client had read ahead, at most its
    /// 256 kB buffer, and the socket's). The whole body otherwise, within `maxBytes`. Vetted as
    /// `fetch` is (fields, redirects, addresses, a directory mount's confinement), never coalesced with
    /// another fetch (`SharedReads` shares the caller's answer instead), and ended at
    /// `timeouts.origin_seconds` from its start, as a buffered fetch is: bytes that settle the answer by
    /// then are used, else it throws `timeout`. A status outside 2xx comes back without its body. A body
    /// the origin gzip-encoded although identity was asked for is read whole and decoded, as `fetch`
    /// decodes it. The first video segment's PTS is read this way: a 2 MB segment's timestamps are in
    /// its first few kilobytes.
    func fetchPrefix<Answer>(
        _ url: String, kind: String, maxBytes: Int, mount: Mount?, request: HTTPRequest, settles: ([UInt8]) -> Answer?
    ) async throws -> FetchedPrefix<Answer> {
        let originRequest = try await vettedRequest(url, maxBytes: maxBytes, mount: mount, request: request)
        let started = MonotonicTime.now()
        let stream: OriginStream
        do {
            stream = try await origin.stream(originRequest)
        } catch {
            metrics.recordOriginFetch(kind: kind, seconds: Self.milliseconds(started.duration(to: .now())) / 1000)
            logOriginFailure(url, kind: kind, started: started, error: error)
            throw error
        }
        // Settled with little of the body left, the rest is read in the background instead (below), so
        // the connection goes back to the pool rather than being closed.
        var drainsRest = false
        defer { if !drainsRest { stream.cancel() } }
        defer { metrics.recordOriginFetch(kind: kind, seconds: Self.milliseconds(started.duration(to: .now())) / 1000) }
        var prefix = FetchedPrefix<Answer>(status: stream.status, bytes: [], settled: nil)
        guard (200..<300).contains(stream.status) else { return prefix }
        // A body encoded although identity was asked for is read whole on this exchange (no second
        // one: this one's slot may not be back yet) and decoded, as a buffered fetch decodes it.
        let coding = stream.headers[.contentEncoding]?.lowercased()
        let encoded = coding != nil && coding != "identity"
        if encoded, coding != "gzip", coding != "x-gzip" {
            let failure = OriginError.badResponse("unsupported Content-Encoding")
            logOriginFailure(url, kind: kind, started: started, error: failure)
            throw failure
        }
        // The stream's own timeouts bound each wait; this bounds them all: at the deadline the stream
        // is ended, so the `next()` in progress returns.
        let budget = ConfigSeconds.duration(config.timeouts.originTotal)
        let remaining = budget - started.duration(to: .now())
        let deadline = Task {
            // Cancelled once the read is over: then the stream is left as it is.
            if remaining > .zero {
                do { try await Task.sleep(for: remaining) } catch { return }
            }
            stream.cancel()
        }
        defer { if !drainsRest { deadline.cancel() } }
        do {
            var nextCheck = 0
            while let piece = try await stream.next() {
                guard prefix.bytes.count + piece.count <= maxBytes else { throw OriginError.tooLarge(limit: maxBytes) }
                prefix.bytes.append(contentsOf: piece)
                guard !encoded, prefix.bytes.count >= nextCheck else { continue }
                if let answer = settles(prefix.bytes) {
                    prefix.settled = answer
                    if stream.connectionMayBeKept, let length = stream.bodyLength, length - prefix.bytes.count <= Self.drainedRemainder,
                       slotsToSpare {
                        drainsRest = true
                        let logger = logger
                        Task {
                            defer { deadline.cancel() }
                            // An origin that stalls now keeps the exchange's slot no longer than this.
                            let cutoff = Task {
                                do { try await Task.sleep(for: Self.drainTime) } catch { return }
                                stream.cancel()
                            }
                            defer { cutoff.cancel() }
                            var read = 0
                            var ended = false
                            do {
                                while let piece = try await stream.next() { read += piece.count }
                                ended = true
                            } catch {}
                            logger.debug("origin fetch rest", [
                                ("url", ProxyLogger.redactedURL(url)), ("kind", kind), ("bytes", String(read)),
                                ("rest", ended ? "read to its end, connection kept" : "cut off"),
                            ])
                        }
                    }
                    break
                }
                nextCheck = prefix.bytes.count * 2
            }
            if encoded, !prefix.bytes.isEmpty { prefix.bytes = try GzipDecoder.decode(prefix.bytes, maxOutputBytes: maxBytes) }
        } catch {
            // What arrived before the failure may be enough, though not yet asked about.
            if !encoded, !prefix.bytes.isEmpty, let answer = settles(prefix.bytes) {
                prefix.settled = answer
            } else {
                let failure: any Error = started.duration(to: .now()) >= budget ? OriginError.timeout : error
                logOriginFailure(url, kind: kind, started: started, error: failure)
                throw failure
            }
        }
        logger.debug("origin fetch", [
            ("url", ProxyLogger.redactedURL(url)), ("kind", kind), ("status", String(stream.status)),
            ("ms", Self.debugMilliseconds(Self.milliseconds(started.duration(to: .now())))),
            ("bytes", String(prefix.bytes.count)), ("whole", prefix.isWhole ? "true" : "false"),
            ("rest", prefix.isWhole ? "none" : drainsRest ? "reading in the background" : "cut off"),
        ])
        return prefix
    }
}
