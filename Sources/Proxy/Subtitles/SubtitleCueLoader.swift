import Foundation
import HLS
import HTTPServer

/// Subtitle tracks' cues, loaded from their sources once for every request that wants them.
struct SubtitleCueLoader: Sendable {
    let config: ProxyConfig
    /// Subtitle documents after conversion, offset and timestamp mapping.
    let documents: MemoryCache<SubtitleTrackCues>
    /// Loads in flight or in use, so one source is parsed once for all its requests.
    let loads: SubtitleTrackLoads
    let fetcher: OriginFetcher
    let timelines: VideoTimelineReader
    let logger: ProxyLogger
    let metrics: ProxyMetrics

    /// The track's cues as WebVTT: fetched, converted (SRT, TTML, MP4 text), shifted by the track offset, and
    /// mapped to the video's timeline with X-TIMESTAMP-MAP. A missing, empty or broken source becomes a
    /// valid empty track with a warning: a broken subtitle never breaks playback (SPEC). That fallback is
    /// cached for `cache.fallback_ttl_seconds` only, so a source that comes back is served again soon; so
    /// are cues left without X-TIMESTAMP-MAP because the video's first segment could not be fetched this time.
    /// Concurrent requests for one track share one fetch and parse, and one document while they hold it.
    /// Load shedding is not a broken source: `OriginError.overloaded` is thrown (503), never served or
    /// cached empty.
    /// `countingMiss` false for a load nobody waits on yet (the playlist's prefetch).
    func cues(
        set: SubtitleSet, track: TrackConfig, master: OriginTarget, request: HTTPRequest, countingMiss: Bool = true
    ) async throws -> SubtitleTrackCues {
        let key = Self.documentKey(set: set, track: track, master: master, request: request)
        if let hit = documents.value(for: key, countingMiss: countingMiss) { return hit }
        return try await loads.cues(for: key) { [self] in
            // A load that finished between the lookup above and this one left its document in the cache.
            if let hit = documents.value(for: key, countingMiss: false) { return hit }
            let cues = try await loadTrack(set: set, track: track, master: master, request: request)
            let ttl = cues.isFallback ? min(config.cache.fallbackTTL, config.cache.subtitleTTL) : config.cache.subtitleTTL
            // The document (48 bytes a cue, the texts it owns, and the source's bytes that the others are
            // kept in), and the WebVTT files made from it, kept with it: about as large as its texts.
            let document = cues.document
            let texts = document.cues.reduce(0) { $0 + $1.textUTF8Count }
            let ownTexts = document.cues.reduce(0) { $0 + ($1.keepsTextInSource ? 0 : $1.textUTF8Count) }
            let cost = 2 * (256 + 48 * document.cues.count) + texts + ownTexts + document.retainedSourceBytes
            documents.store(cues, for: key, cost: cost, ttl: ConfigSeconds.duration(ttl))
            return cues
        }
    }

    /// The track's cues if they are in the cache, without loading anything (a miss is not counted:
    /// the caller then asks `cues`, which counts it).
    func cachedCues(set: SubtitleSet, track: TrackConfig, master: OriginTarget, request: HTTPRequest) -> SubtitleTrackCues? {
        documents.value(for: Self.documentKey(set: set, track: track, master: master, request: request), countingMiss: false)
    }

    /// What a track's cues are kept under. The resolved source and what shapes the cues are in it: the
    /// same set, track id and master may carry other sources (a template, a backend, a signed URL), and
    /// those never share cues.
    static func documentKey(set: SubtitleSet, track: TrackConfig, master: OriginTarget, request: HTTPRequest) -> String {
        // Written part by part into the key, the numbers as their bits: no array of parts and no
        // Double's text per request.
        MemoryCacheKey.make(target: master, request: request) { key in
            key.add(set.name)
            key.add(track.id)
            key.add(track.source)
            key.add(track.format?.rawValue ?? "")
            key.add(number: track.offset.bitPattern)
            if let mpegts = track.mpegts { key.add(number: UInt64(bitPattern: mpegts)) } else { key.add("") }
            key.add(track.track.language)
        }
    }

    private func loadTrack(set: SubtitleSet, track: TrackConfig, master: OriginTarget, request: HTTPRequest) async throws -> SubtitleTrackCues {
        var document: WebVTTDocument
        var isFallback = false
        var unmappedForNow = false
        var mapFromOperator = false
        do {
            document = try await loadSource(track, set: set, master: master, request: request)
        } catch let failure as SubtitleSourceFailure {
            logger.log(.warn, "subtitle source unusable; serving an empty track", [
                ("set", set.name), ("track", track.id), ("reason", failure.reason), ("detail", failure.detail),
            ])
            metrics.recordSubtitleFallback(reason: failure.reason)
            document = Self.emptyDocument
            isFallback = true
        } catch let shed as OriginError where shed.isShed {
            throw shed
        } catch {
            metrics.recordSubtitleFallback(reason: "error")
            document = Self.emptyDocument
            isFallback = true
        }
        let limit = config.limits.maxSubtitleCues
        if document.cues.count > limit {
            // Past the cap the first cues are kept: the track plays as far as it goes, deterministically.
            logger.log(.warn, "subtitle source has more cues than limits.max_subtitle_cues; serving the first ones", [
                ("set", set.name), ("track", track.id), ("limit", String(limit)),
            ])
            metrics.recordSubtitleCuesCapped()
            document.cues.removeSubrange(limit...)
        }
        // ffmpeg 5.1's WebVTT reader stops at a STYLE block and reads no cue after it, and HLS
        // players do not apply STYLE or REGION from segments anyway: serve the cues without them.
        document.blocks.removeAll()
        if track.offset != 0 {
            document = document.shifted(by: ConfigSeconds.signedMilliseconds(track.offset))
        }
        if let ticks = track.mpegts {
            // Config overrides whatever the source said.
            document = document.settingTimestampMap(TimestampMap(mpegts: ticks, local: 0), keepExisting: false)
            logger.debug("timestamp map", [("track", track.id), ("mpegts", String(ticks)), ("source", "config mpegts")])
            mapFromOperator = true
        } else if let kept = document.timestampMap {
            logger.debug("timestamp map", [("track", track.id), ("mpegts", String(kept.mpegts)), ("source", "kept from the subtitle source")])
            mapFromOperator = true
        } else {
            let start = try await timelines.presentationStart(master, request: request)
            if let ticks = start.ticks {
                document = document.settingTimestampMap(TimestampMap(mpegts: ticks, local: 0), keepExisting: true)
            }
            logger.debug("timestamp map", [("track", track.id), ("mpegts", start.ticks.map { String($0) } ?? "none"), ("source", start.source)])
            // Cues without the video's PTS play out of sync on a TS stream: when only a failed fetch kept
            // it from us, they are as provisional as the empty fallback and kept as briefly.
            unmappedForNow = start.ticks == nil && start.transient
        }
        return SubtitleTrackCues(document: document, isFallback: isFallback || unmappedForNow, mapFromOperator: mapFromOperator)
    }

    /// `WEBVTT` and a blank line: the smallest valid track.
    static var emptyDocument: WebVTTDocument { WebVTTDocument() }

    private func loadSource(_ track: TrackConfig, set: SubtitleSet, master: OriginTarget, request: HTTPRequest) async throws -> WebVTTDocument {
        guard let url = Self.sourceURL(of: track, master: master) else {
            throw SubtitleSourceFailure(reason: "bad_source", detail: "source URI does not resolve")
        }
        if url.hasPrefix("file:") {
            guard fetcher.mayFetchDerived(url, master: master) else {
                throw SubtitleSourceFailure(reason: "bad_source", detail: "source leaves the mount")
            }
        }
        let fetched: FetchedBody
        do {
            // An absolute source URL in the config is the operator's; a relative one follows the master's host.
            let operatorNamed = track.provenance == .configured && URLReference.origin(of: track.source) != nil
            (fetched, _) = try await fetcher.fetch(
                url, kind: "subtitle", maxBytes: config.limits.maxSubtitleBytes, mount: master.mount, request: request,
                operatorNamed: operatorNamed, backendSourceHosts: track.provenance == .backend ? set.sourceHosts : nil,
                sourceProvenance: track.provenance)
        } catch let shed as OriginError where shed.isShed {
            throw shed
        } catch {
            throw SubtitleSourceFailure(reason: "unreachable", detail: String(describing: error))
        }
        guard (200..<300).contains(fetched.status) else {
            throw SubtitleSourceFailure(reason: "missing", detail: "origin answered \(fetched.status)")
        }
        guard !fetched.body.isEmpty else { throw SubtitleSourceFailure(reason: "empty", detail: "source is empty") }
        let format = track.format ?? Self.sourceFormat(url: url, body: fetched.body)
        // One cue past the cap is read, so the caller sees that the cap was passed.
        let readCues = min(config.limits.maxSubtitleCues, Int.max - 1) + 1
        do {
            switch format {
            case .webvtt: return try WebVTTDocument.parse(fetched.body, maxCues: readCues)
            case .srt: return try SRTConverter.webVTT(from: fetched.body, maxCues: readCues)
            case .ttml:
                let conversion = try TTMLConverter.conversion(from: fetched.body, maxCues: readCues)
                noteDropped(conversion.droppedCount, reasons: conversion.droppedReasons, what: "TTML elements", track: track)
                return conversion.document
            case .mp4:
                let tracks = try MP4TextTrackReader.read(fetched.body)
                guard let chosen = LanguageMatch.best(tracks, language: track.track.language) else {
                    throw SubtitleSourceFailure(reason: "broken", detail: "MP4 has no text track")
                }
                noteDropped(chosen.dropped.count, reasons: chosen.dropped.reasons, what: "MP4 text samples", track: track)
                return chosen.makeWebVTTDocument()
            }
        } catch let failure as SubtitleSourceFailure {
            throw failure
        } catch {
            throw SubtitleSourceFailure(reason: "broken", detail: String(describing: error))
        }
    }

    /// The track's source as an absolute URL: relative to the master's origin URL, except that on a
    /// directory mount a path starting with "/" is taken from the mount's root.
    static func sourceURL(of track: TrackConfig, master: OriginTarget) -> String? {
        if case .directory(let root) = master.mount?.origin, track.source.hasPrefix("/"), !track.source.hasPrefix("//") {
            let rootURL = URL(fileURLWithPath: root, isDirectory: true).absoluteString
            return URLReference.resolve(String(track.source.dropFirst()), against: rootURL)
        }
        return URLReference.resolve(track.source, against: master.url)
    }

    /// The source format by extension, else by sniffing the first bytes.
    static func sourceFormat(url: String, body: [UInt8]) -> TrackConfig.SourceFormat {
        switch URLReference.pathExtension(of: url) {
        case "vtt", "webvtt": return .webvtt
        case "srt": return .srt
        case "mp4", "m4v", "mov", "m4s", "3gp": return .mp4
        case "ttml", "dfxp", "xml": return .ttml
        default:
            let start = body.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(body.dropFirst(3).prefix(6)) : Array(body.prefix(6))
            if start == Array("WEBVTT".utf8) { return .webvtt }
            if body.count >= 8, Array(body[4..<8]) == Array("ftyp".utf8) { return .mp4 }
            if TTMLConverter.looksLikeTTML(body) { return .ttml }
            return .srt
        }
    }
}

/// Why a subtitle source could not be used; `reason` is a metrics label.
struct SubtitleSourceFailure: Error {
    var reason: String
    var detail: String
}

/// Picks the MP4 text track for a configured language tag.
enum LanguageMatch {
    /// ISO 639-1 to ISO 639-2 (T and B forms) for the languages MP4 files commonly carry.
    static let threeLetter: [String: [String]] = [
        "en": ["eng"], "fr": ["fra", "fre"], "es": ["spa"], "de": ["deu", "ger"], "it": ["ita"], "pt": ["por"],
        "nl": ["nld", "dut"], "sv": ["swe"], "no": ["nor"], "da": ["dan"], "fi": ["fin"], "pl": ["pol"],
        "ru": ["rus"], "ja": ["jpn"], "zh": ["zho", "chi"], "ko": ["kor"], "ar": ["ara"], "tr": ["tur"],
        "hi": ["hin"], "he": ["heb"], "el": ["ell", "gre"], "cs": ["ces", "cze"], "hu": ["hun"], "uk": ["ukr"],
    ]

    static func best(_ tracks: [MP4TextTrack], language: String) -> MP4TextTrack? {
        let primary = language.split(separator: "-").first.map { $0.lowercased() } ?? ""
        let wanted = Set([primary] + (threeLetter[primary] ?? []))
        return tracks.first { ($0.language.map { wanted.contains($0.lowercased()) }) ?? false } ?? tracks.first
    }
}
