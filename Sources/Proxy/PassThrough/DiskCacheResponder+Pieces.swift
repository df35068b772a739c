import HTTPServer
import HTTPWire

extension DiskCacheResponder {
    /// One stretch of a response put together from pieces: bytes read from a stored piece, or a range
    /// fetched from the origin (the first one already fetched before the response head is sent).
    enum PlannedSpan: Sendable {
        /// `count` bytes from body offset `from` of an opened piece.
        case disk(DiskCacheReader, from: Int, count: Int)
        /// Object bytes `lower...upper` from the origin; `fetched` when already asked for.
        case origin(lower: Int, upper: Int, fetched: OriginRangeSource?)
    }

    /// What the pieces make of a request: an answer, or an origin answer for an object that changed
    /// since they were stored (the pieces are dropped; pass-through answers it afresh, as a miss).
    enum PiecedAnswer: Sendable {
        case answered(RouteResponse)
        case originChanged(OriginStream, originMilliseconds: Double)
    }

    /// A GET or HEAD for an object the cache holds pieces of. Answered from disk alone when the pieces
    /// hold every byte asked for (and HEAD and 416 always, since the object length is known); else from
    /// the pieces plus origin requests for exactly the missing ranges, each stored as a new piece while
    /// it is relayed (or read along from a copy of the same range another request started). Nil when no
    /// piece helps (the caller then asks the origin as usual).
    ///
    /// The first missing range is fetched before the response head is sent, so an origin failure there
    /// is the usual 502/504, and an object that changed is answered afresh. A later missing range that
    /// fails or turns out changed can only abort the connection: the head and some of the body are gone.
    func piecedPassThrough(_ target: OriginTarget, request: HTTPRequest) async throws -> PiecedAnswer? {
        guard isCacheable(target, request: request) else { return nil }
        let diskCache = cache
        let key = self.key(target, request: request)
        let stored = diskCache.pieces.stored(forKey: key)
        guard let newest = stored.first else { return nil }
        let version = newest.indexed.entry
        var headers = HTTPHeaders()
        for field in version.fields { headers.add(name: field.name, value: field.value) }
        guard let (status, lower, count) = ByteRangeRequest.select(request, length: version.objectLength, headers: &headers) else {
            diskCache.record { $0.hits += 1 }
            logPieces(target, "piece hit", [("range", "unsatisfiable")])
            return .answered(RouteResponse(route: .cache, response: HTTPResponse(status: .rangeNotSatisfiable, headers: headers, body: .empty)))
        }
        let upper = lower + count - 1
        if request.method == .head {
            diskCache.record { $0.hits += 1 }
            logPieces(target, "piece hit", [("range", "\(lower)-\(upper)")])
            return .answered(RouteResponse(route: .cache, response: HTTPResponse(status: status, headers: headers, body: .stream(length: upper - lower + 1, producer: { _ in }))))
        }
        // Only pieces of one version are served side by side (the cache keeps no other without a validator).
        // Headers are checked when read (offset + length <= object length, length > 0), so the bounds hold.
        let usable = stored.filter { piece in
            piece.indexed.entry.length > 0 && (piece.name == newest.name || piece.indexed.entry.isSameVersion(as: version))
        }
        let ranges = usable.map { piece -> ClosedRange<Int> in
            let offset = piece.indexed.entry.piece?.offset ?? 0
            return offset...(offset + piece.indexed.entry.length - 1)
        }
        let spans = DiskCacheSpan.cover(lower, upper, with: ranges)
        guard spans.contains(where: \.isStored) else {
            logPieces(target, "pieces unused: none holds a byte of the range", [("range", "\(lower)-\(upper)")])
            return nil
        }
        let missing = spans.contains { !$0.isStored }
        if missing, version.validator == nil {
            logPieces(target, "pieces unused: no validator to join them to origin ranges", [("range", "\(lower)-\(upper)")])
            return nil
        }
        var planned: [PlannedSpan] = []
        var readers: [Int: DiskCacheReader] = [:]
        for span in spans {
            switch span {
            case .stored(let index, let first, let last):
                if readers[index] == nil { readers[index] = diskCache.pieces.open(usable[index].name, usable[index].indexed) }
                guard let reader = readers[index] else { return nil }
                planned.append(.disk(reader, from: first - ranges[index].lowerBound, count: last - first + 1))
            case .missing(let first, let last):
                planned.append(.origin(lower: first, upper: last, fetched: nil))
            }
        }
        guard missing else {
            diskCache.record { $0.hits += 1 }
            logPieces(target, "piece hit", [("range", "\(lower)-\(upper)")])
            let fromDisk = planned
            return .answered(RouteResponse(route: .cache, response: HTTPResponse(status: status, headers: headers, body: .stream(length: upper - lower + 1, producer: { writer in
                try await Self.send(fromDisk, to: writer, counting: diskCache, fetch: { _, _ in throw DiskCacheError.originChanged })
            }))))
        }
        guard let firstGap = planned.firstIndex(where: { if case .origin = $0 { return true } else { return false } }),
              case .origin(let gapLower, let gapUpper, _) = planned[firstGap] else { return nil }
        logPieces(target, "piece partial hit", [("range", "\(lower)-\(upper)"), ("missing", Self.missingRanges(planned))])
        var elapsed = 0.0
        if let following = diskCache.pieces.follow(of: version, offset: gapLower, count: gapUpper - gapLower + 1) {
            logPieces(target, "missing range read along a fill in progress", [("range", "\(gapLower)-\(gapUpper)")])
            planned[firstGap] = .origin(lower: gapLower, upper: gapUpper, fetched: .storing(following))
        } else {
            let (stream, fetchedIn) = try await fetchMissingRange(gapLower, gapUpper, of: version, target: target, request: request)
            elapsed = fetchedIn
            guard Self.isRange(stream, lower: gapLower, upper: gapUpper, of: version) else {
                // The origin's object is not the one the pieces came from: they are dropped, never joined.
                diskCache.pieces.dropObject(key: key)
                logPieces(target, "pieces dropped: the origin object changed", [("status", String(stream.status))])
                if stream.status == 206 {
                    // A range of other bytes is no answer to what the client asked: ask again as a miss.
                    stream.cancel()
                    return nil
                }
                diskCache.record { $0.misses += 1 }
                return .originChanged(stream, originMilliseconds: elapsed)
            }
            planned[firstGap] = .origin(lower: gapLower, upper: gapUpper, fetched: source(for: stream, target: target, lower: gapLower, upper: gapUpper, of: version))
        }
        diskCache.record { $0.partialHits += 1 }
        let spansToSend = planned
        let response = HTTPResponse(status: status, headers: headers, body: .stream(length: upper - lower + 1, producer: { writer in
            try await Self.send(spansToSend, to: writer, counting: diskCache) { first, last in
                if let following = diskCache.pieces.follow(of: version, offset: first, count: last - first + 1) {
                    self.logPieces(target, "missing range read along a fill in progress", [("range", "\(first)-\(last)")])
                    return .storing(following)
                }
                let (stream, _) = try await self.fetchMissingRange(first, last, of: version, target: target, request: request)
                guard Self.isRange(stream, lower: first, upper: last, of: version) else {
                    stream.cancel()
                    diskCache.pieces.dropObject(key: key)
                    self.logPieces(target, "pieces dropped: the origin object changed mid-response", [("status", String(stream.status))])
                    throw DiskCacheError.originChanged
                }
                return self.source(for: stream, target: target, lower: first, upper: last, of: version)
            }
        }))
        return .answered(RouteResponse(route: .proxy, response: response, originMilliseconds: elapsed))
    }

    /// A `disk cache` debug line for a decision about stored pieces; built only at debug level.
    func logPieces(_ target: OriginTarget, _ decision: @autoclosure () -> String, _ details: @autoclosure () -> [(String, String)] = []) {
        logger.debug("disk cache", [("url", ProxyLogger.redactedURL(target.url)), ("cache", decision())] + details())
    }

    /// The origin ranges of a plan as `first-last` bounds joined by commas, for a debug line.
    static func missingRanges(_ spans: [PlannedSpan]) -> String {
        spans.compactMap { span -> String? in
            if case .origin(let lower, let upper, _) = span { return "\(lower)-\(upper)" }
            return nil
        }.joined(separator: ",")
    }

    /// Writes the planned spans in order, counting bytes by where they came from; origin ranges not yet
    /// fetched are fetched with `fetch` when their turn comes.
    static func send(
        _ spans: [PlannedSpan], to writer: HTTPBodyWriter, counting diskCache: DiskCache,
        fetch: @Sendable (Int, Int) async throws -> OriginRangeSource
    ) async throws {
        let fromDisk = HTTPBodyWriter { piece in
            try await writer.write(piece)
            diskCache.record { $0.count(bytes: piece.count, from: .disk) }
        }
        let fromOrigin = HTTPBodyWriter { piece in
            try await writer.write(piece)
            diskCache.record { $0.count(bytes: piece.count, from: .origin) }
        }
        for span in spans {
            switch span {
            case .disk(let reader, let from, let count):
                try await reader.read(from: from, count: count) { try await fromDisk.write($0) }
            case .origin(let lower, let upper, let fetched):
                let source: OriginRangeSource
                if let fetched { source = fetched } else { source = try await fetch(lower, upper) }
                try await source.send(count: upper - lower + 1, to: fromOrigin)
            }
        }
    }
}
