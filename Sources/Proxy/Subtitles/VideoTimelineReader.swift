import HLS
import HTTPServer

/// What the video of a master says that subtitles need: its first variant's segment durations and
/// playlist type, and the first presentation timestamp for X-TIMESTAMP-MAP (RFC 8216 §3.5).
struct VideoTimelineReader: Sendable {
    let config: ProxyConfig
    let fetcher: OriginFetcher
    /// Video timelines per master.
    let timelines: MemoryCache<VideoTimeline>
    /// First presentation timestamps (90 kHz) per master.
    let timestamps: MemoryCache<Int64>
    let logger: ProxyLogger
    /// Masters whose playlists were already logged as unreadable in a way that repeats on every read.
    let notices = OnceNotices()
    /// The numbers live windows listed lately, so one that just left is still served (RFC 8216 §6.2.2).
    let liveHistory = LiveWindowHistory()
    /// First-PTS reads in flight, by their cache key: one origin read per segment however many ask.
    let timestampReads = SharedReads<(ticks: Int64?, transient: Bool, source: String)>()

    /// Segment durations and first segment of the master's first variant; nil when it cannot be had,
    /// `failed` when an origin's error status or a failed fetch kept it from us (the next try may succeed).
    /// Throws only `OriginError.overloaded`: a shed fetch says nothing about the video.
    func videoTimeline(_ master: OriginTarget, request: HTTPRequest) async throws -> (timeline: VideoTimeline?, failed: Bool) {
        let key = MemoryCacheKey.make(target: master, request: request)
        if let hit = timelines.value(for: key) { return (hit, false) }
        do {
            let (fetchedMaster, _) = try await fetcher.cachedPlaylist(master.url, kind: "master", for: master, request: request)
            guard (200..<300).contains(fetchedMaster.status) else { return (nil, true) }
            let fetchedMedia: FetchedBody
            if let variant = VariantLocator.firstVariantURI(in: fetchedMaster.body) {
                guard let variantURL = URLReference.resolve(variant, against: fetchedMaster.finalURL, mount: master.mount),
                      fetcher.mayFetchDerived(variantURL, master: master)
                else { return (nil, false) }
                (fetchedMedia, _) = try await fetcher.cachedPlaylist(variantURL, kind: "media", for: master, request: request)
                guard (200..<300).contains(fetchedMedia.status) else { return (nil, true) }
            } else if VariantLocator.isMediaPlaylist(fetchedMaster.body) {
                // A wrapped media playlist (`wrap_media_playlists`) is its own first variant.
                fetchedMedia = fetchedMaster
            } else {
                return (nil, false)
            }
            let media = try MediaPlaylist.parse(fetchedMedia.body)
            let timeline = Self.makeTimeline(media, base: fetchedMedia.finalURL, mount: master.mount)
            noteUnreadableTags(timeline, master: master)
            noteUnnumberedLiveWindow(timeline, master: master)
            liveHistory.note(timeline, key: key)
            // A growing playlist (EVENT or live) is read again once the media playlist's own cache entry
            // (cache.master_ttl_seconds) is stale, so players reloading the subtitle playlist see new segments.
            if timeline.ended {
                timelines.store(timeline, for: key, cost: 64 + 8 * timeline.durations.count + SubtitlePlaylists.budget(segments: timeline.durations.count), ttl: ConfigSeconds.duration(config.cache.subtitleTTL))
            }
            return (timeline, false)
        } catch let shed as OriginError where shed.isShed {
            throw shed
        } catch {
            logger.log(.warn, "video timeline unavailable", [("master", master.proxyTarget), ("error", String(describing: error))])
            return (nil, error is OriginError)
        }
    }

    /// The timeline of a parsed variant playlist, its URIs resolved against `base` (on a directory
    /// mount, path-absolute ones against the mount's root, as the player gets them).
    static func makeTimeline(_ media: MediaPlaylist, base: String, mount: Mount? = nil) -> VideoTimeline {
        func resolve(_ uri: String) -> String? { URLReference.resolve(uri, against: base, mount: mount) }
        let first = media.segments.first
        var parts: [VideoPart] = []
        for (index, segment) in media.segments.enumerated() where index == 0 || segment.discontinuity {
            parts.append(VideoPart(
                firstSegment: index,
                segmentURL: resolve(segment.uri),
                initSegmentURL: segment.mapURI.flatMap(resolve)
            ))
        }
        // RFC 8216 §4.2, §4.3.3.2, §4.3.3.3: every segment's media and discontinuity sequence numbers are
        // decimal-integers below 2^64; a first number that leaves no room for the segments after it is
        // read like an unreadable tag (written as 0, with the warning), never carried into arithmetic.
        var unreadableTags = media.unreadableTags
        var mediaSequence = media.mediaSequence
        if let first = mediaSequence, first.addingReportingOverflow(UInt64(media.segments.count)).overflow {
            unreadableTags.append("#EXT-X-MEDIA-SEQUENCE:\(first) (+\(media.segments.count) passes 2^64-1)")
            mediaSequence = nil
        }
        var discontinuitySequence = media.discontinuitySequence
        let discontinuities = media.segments.filter(\.discontinuity).count
        if let first = discontinuitySequence, first.addingReportingOverflow(UInt64(discontinuities)).overflow {
            unreadableTags.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(first) (+\(discontinuities) passes 2^64-1)")
            discontinuitySequence = nil
        }
        return VideoTimeline(
            durations: media.segments.map(\.duration),
            playlistType: media.playlistType,
            firstSegmentURL: first.flatMap { resolve($0.uri) },
            initSegmentURL: first?.mapURI.flatMap(resolve),
            parts: parts,
            discontinuitySequence: discontinuitySequence,
            mediaSequence: mediaSequence,
            unreadableTags: unreadableTags,
            segmentURLs: media.segments.map { (resolve($0.uri), $0.mapURI.flatMap(resolve)) },
            leadingDiscontinuity: first?.discontinuity ?? false,
            targetDuration: media.targetDuration,
            // RFC 8216 §4.3.3.5: a VOD playlist cannot change, whether or not it ends in ENDLIST.
            ended: media.hasEndList || media.playlistType == "VOD"
        )
    }

    /// What live segment `sequence` of the master's window was listed with, when it left the window
    /// lately (`LiveWindowHistory`).
    func departedLiveSegment(_ sequence: Int, master: OriginTarget, request: HTTPRequest) -> LiveWindowHistory.Segment? {
        guard sequence >= 0 else { return nil }
        return liveHistory.segment(UInt64(sequence), key: MemoryCacheKey.make(target: master, request: request))
    }

    /// The first presentation timestamp of the master's first variant's first segment, 90 kHz ticks;
    /// nil when it cannot be had, `transient` when that was an origin's error status or a failed fetch
    /// (the next try may succeed) rather than the video (no segment, not TS or fragmented MP4).
    /// Throws only `OriginError.overloaded`.
    /// `source` says, for debug lines, where the value came from or why there is none (URLs redacted).
    func presentationStart(_ master: OriginTarget, request: HTTPRequest) async throws -> (ticks: Int64?, transient: Bool, source: String) {
        try await partStart(master, part: 0, request: request)
    }

    /// The first presentation timestamp of part `part` (after its discontinuity) of the first variant,
    /// read from that part's first segment the first time it is asked for and cached like the first
    /// part's; the same fallbacks as `presentationStart`.
    func partStart(_ master: OriginTarget, part: Int, request: HTTPRequest) async throws -> (ticks: Int64?, transient: Bool, source: String) {
        let firstKey = MemoryCacheKey.make(target: master, request: request)
        let which = part == 0 ? "first segment" : "first segment of part \(part)"
        if part == 0, let hit = timestamps.value(for: firstKey) { return (hit, false, "read earlier from the video's \(which) (cached)") }
        let (found, timelineFailed) = try await videoTimeline(master, request: request)
        guard let timeline = found else { return (nil, timelineFailed, "none: the master's first variant could not be read") }
        let videoPart = timeline.parts.indices.contains(part) ? timeline.parts[part] : nil
        guard let segmentURL = videoPart?.segmentURL ?? (part == 0 ? timeline.firstSegmentURL : nil) else {
            return (nil, false, "none: the first variant has no \(which)")
        }
        // A later part's PTS is keyed by its first segment, not its number: in a sliding window the
        // numbers shift as old parts leave, the segment stays what it is.
        let key = part == 0 ? firstKey : MemoryCacheKey.make(target: master, request: request, qualifiers: ["part", segmentURL])
        let initURL = videoPart?.initSegmentURL ?? timeline.initSegmentURL
        return try await segmentStart(master, segmentURL: segmentURL, initURL: initURL, key: key, part: part, request: request)
    }

    /// The first presentation timestamp of the segment at `segmentURL` (with its init segment for fMP4),
    /// cached under `key`; `part` names it in log lines. The same fallbacks as `presentationStart`.
    func segmentStart(
        _ master: OriginTarget, segmentURL: String, initURL: String?, key: String, part: Int, request: HTTPRequest, quiet: Bool = false
    ) async throws -> (ticks: Int64?, transient: Bool, source: String) {
        let which = part == 0 ? "first segment" : "first segment of part \(part)"
        if let hit = timestamps.value(for: key) { return (hit, false, "read earlier from the video's \(which) (cached)") }
        guard fetcher.mayFetchDerived(segmentURL, master: master) else { return (nil, false, "none: the \(which)'s host may not be fetched") }
        let reader = self
        let (shared, joined) = await timestampReads.value(for: key) {
            try await reader.readStart(master, segmentURL: segmentURL, initURL: initURL, key: key, part: part, request: request, quiet: quiet)
        }
        // A read another request started was made with its URL and fields (a live key leaves out the
        // query's token): only its success, and an answer the segment itself gives (not TS, no PTS),
        // are shared. A failed fetch may be that request's own (an expired token), so this one reads
        // again, with the requests that ask exactly as it does (the same URLs, query included, and
        // forwarded fields): viewers joined on a failed read do not each fetch the segment at once.
        // Shedding is passed on: the slots are as full for this request.
        guard joined, case .success(let answer) = shared, answer.ticks == nil, answer.transient else { return try shared.get() }
        let again = "\(key) again \(segmentURL) \(initURL ?? "") \(MemoryCacheKey.make(target: master, request: request))"
        return try await timestampReads.value(for: again) {
            try await reader.readStart(master, segmentURL: segmentURL, initURL: initURL, key: key, part: part, request: request, quiet: quiet)
        }.answer.get()
    }

    /// `segmentStart`'s origin read, one at a time per key; stores what it reads.
    private func readStart(
        _ master: OriginTarget, segmentURL: String, initURL: String?, key: String, part: Int, request: HTTPRequest, quiet: Bool
    ) async throws -> (ticks: Int64?, transient: Bool, source: String) {
        let which = part == 0 ? "first segment" : "first segment of part \(part)"
        // A read that ended just before this one began may have stored it.
        if let hit = timestamps.value(for: key, countingMiss: false, countingHit: false) { return (hit, false, "read earlier from the video's \(which) (cached)") }
        let shownURL = logger.isEnabled(.debug) ? ProxyLogger.redactedURL(segmentURL) : ""
        do {
            let limit = config.limits.maxProxyBodyBytes
            // The init segment first (it is small), so the media segment is read only until its first
            // timestamps settle the answer (`fetchPrefix`), not to its end.
            var initSegment: [UInt8]?
            if let initURL, fetcher.mayFetchDerived(initURL, master: master) {
                let (fetched, _) = try await fetcher.fetch(initURL, kind: "segment", maxBytes: limit, mount: master.mount, request: request)
                guard (200..<300).contains(fetched.status) else { return (nil, true, "none: init segment answered \(fetched.status)") }
                initSegment = fetched.body
            }
            let segment = try await fetcher.fetchPrefix(segmentURL, kind: "segment", maxBytes: limit, mount: master.mount, request: request) { prefix in
                if let initSegment { return try? FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegmentPrefix: prefix) }
                return MPEGTSReader.firstPTS(ofPrefix: prefix)
            }
            guard (200..<300).contains(segment.status) else { return (nil, true, "none: segment \(shownURL) answered \(segment.status)") }
            // The prefix's answer is the whole segment's; without one, the whole segment is read.
            let ticks: Int64
            if let settled = segment.settled {
                ticks = settled
            } else if let initSegment {
                ticks = try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegment: segment.bytes)
            } else {
                ticks = try MPEGTSReader.firstPTS(segment.bytes)
            }
            let read = segment.isWhole ? "" : ", its first \(segment.bytes.count) bytes"
            let source = "read from segment \(shownURL) as \(initSegment == nil ? "MPEG-TS PES PTS" : "fMP4 tfdt")\(read)"
            timestamps.store(ticks, for: key, cost: 64, ttl: ConfigSeconds.duration(config.cache.subtitleTTL))
            return (ticks, false, source)
        } catch let shed as OriginError where shed.isShed {
            throw shed
        } catch {
            if quiet {
                // The caller writes its own line.
            } else if part == 0 {
                logger.log(.warn, "first PTS unavailable; subtitles go without X-TIMESTAMP-MAP", [
                    ("master", master.proxyTarget), ("error", String(describing: error)),
                ])
            } else {
                logger.log(.warn, "part PTS unavailable; that part's subtitle segments go without X-TIMESTAMP-MAP", [
                    ("master", master.proxyTarget), ("part", String(part)), ("error", String(describing: error)),
                ])
            }
            return (nil, error is OriginError, "none: segment \(shownURL) unreadable (\(type(of: error)))")
        }
    }
}

/// Finds the first variant of a master without a full parse: the URI line after the first EXT-X-STREAM-INF.
enum VariantLocator {
    static func firstVariantURI(in bytes: [UInt8]) -> String? {
        var sawStreamInf = false
        for rawLine in bytes.split(omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            let line = String(decoding: rawLine, as: UTF8.self).trimmingWhitespace()
            if line.isEmpty { continue }
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                sawStreamInf = true
            } else if sawStreamInf, !line.hasPrefix("#") {
                return String(line)
            }
        }
        return nil
    }

    /// Whether a body without EXT-X-STREAM-INF is a media playlist: it starts with #EXTM3U and lists a segment.
    static func isMediaPlaylist(_ bytes: [UInt8]) -> Bool {
        guard let playlist = try? Playlist.parse(bytes), !playlist.isMaster else { return false }
        return playlist.lines.contains { $0.tagName == "EXTINF" }
    }
}
