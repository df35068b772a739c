import HTTPServer
import HTTPWire

extension TrackResolver {
    /// The tracks without the optional ones whose source does not exist now. Probes run side by side,
    /// each answer kept for `cache.tracks_ttl_seconds`; load shedding (503) is passed on, never taken
    /// for an absent source. A probe is sent only once the origin master answered 2xx (as the backend is
    /// asked): an invented asset costs the origin one cached master fetch, not a HEAD per optional
    /// track, and gets the origin's error. `masterInHand`: the caller holds the master's bytes (the
    /// offline `rewrite` command).
    func droppingAbsentOptionalTracks(
        _ tracks: [TrackConfig], set: SubtitleSet, master: OriginTarget, request: HTTPRequest, masterInHand: Bool = false
    ) async throws -> [TrackConfig] {
        guard tracks.contains(where: \.optional) else { return tracks }
        let present = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for (index, track) in tracks.enumerated() where track.optional {
                group.addTask { (index, try await self.sourceExists(track, set: set, master: master, request: request, masterInHand: masterInHand)) }
            }
            var present = Set<Int>()
            for try await (index, exists) in group where exists { present.insert(index) }
            return present
        }
        return tracks.enumerated().filter { !$0.element.optional || present.contains($0.offset) }.map(\.element)
    }

    /// Whether an optional track's source answers 2xx to HEAD, or to GET where HEAD is refused (405, 501).
    func sourceExists(
        _ track: TrackConfig, set: SubtitleSet, master: OriginTarget, request: HTTPRequest, masterInHand: Bool = false
    ) async throws -> Bool {
        guard let url = SubtitleCueLoader.sourceURL(of: track, master: master) else {
            logger.log(.warn, "optional track left out: its source URI does not resolve", [("set", set.name), ("track", track.id)])
            return false
        }
        if url.hasPrefix("file:"), !fetcher.mayFetchDerived(url, master: master) {
            logger.log(.warn, "optional track left out: its source leaves the mount", [("set", set.name), ("track", track.id)])
            return false
        }
        let key = MemoryCacheKey.make(url, target: master, request: request, qualifiers: ["probe"])
        let tracksTTL = config.cache.tracksTTL
        let failedTTL = min(config.cache.fallbackTTL, tracksTTL)
        return try await probes.exists(key) { [self] in
            // Only a probe about to be sent needs the master: a kept answer costs the origin nothing.
            if !masterInHand {
                try await requireOriginMaster(master, set: set, request: request, before: "optional track not probed")
            }
            do {
                let status = try await probeStatus(url, track: track, set: set, master: master, request: request)
                let exists = (200..<300).contains(status)
                logger.debug("optional track probe", [
                    ("set", set.name), ("track", track.id), ("url", ProxyLogger.redactedURL(url)), ("status", String(status)),
                    ("listed", exists ? "yes" : "no"),
                ])
                return (exists, tracksTTL)
            } catch let shed as OriginError where shed.isShed {
                throw shed
            } catch {
                // Unreachable or timed out: absent for now, and asked again soon rather than after the full TTL.
                logger.log(.warn, "optional track source probe failed; track left out", [
                    ("set", set.name), ("track", track.id), ("url", ProxyLogger.redactedURL(url)),
                    ("reason", (error as? any HTTPStatusError)?.reason ?? "error"),
                ])
                return (false, failedTTL)
            }
        }
    }

    /// HEAD, then GET when the origin refuses HEAD: the status that says whether the source exists.
    private func probeStatus(_ url: String, track: TrackConfig, set: SubtitleSet, master: OriginTarget, request: HTTPRequest) async throws -> Int {
        // An absolute source URL in the config is the operator's; a relative one follows the master's host.
        // A backend's source is held to the embedded rules, a signed one to the address rules, as their fetch will be.
        let operatorNamed = track.provenance == .configured && URLReference.origin(of: track.source) != nil
        let backendSourceHosts = track.provenance == .backend ? set.sourceHosts : nil
        let maxBytes = config.limits.maxSubtitleBytes
        do {
            let (head, _) = try await fetcher.fetch(
                url, kind: "probe", maxBytes: maxBytes, mount: master.mount, request: request, operatorNamed: operatorNamed,
                backendSourceHosts: backendSourceHosts, method: .head, sourceProvenance: track.provenance)
            // RFC 9110 §9.3.2 asks every server to support HEAD, but some refuse it.
            guard head.status == 405 || head.status == 501 else { return head.status }
            let (get, _) = try await fetcher.fetch(
                url, kind: "probe", maxBytes: maxBytes, mount: master.mount, request: request, operatorNamed: operatorNamed,
                backendSourceHosts: backendSourceHosts, method: .get, sourceProvenance: track.provenance)
            return get.status
        } catch OriginError.notFoundFile {
            return 404
        }
    }
}
