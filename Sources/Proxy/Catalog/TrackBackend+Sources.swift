import HTTPClient

extension TrackBackend {
    /// The tracks whose source, resolved against the master, may be fetched: http(s), its host on
    /// `embedded.allow_hosts` or the set's `source_hosts`, and every address it resolves to public
    /// unless `embedded.allow_private_networks` (OriginAddressPolicy, as for the embedded form). A
    /// backend is not the operator: what it names is held to the rules a client's URL is.
    func checkedSources(_ tracks: [TrackConfig], url: String, set: SubtitleSet, masterURL: String) async -> [TrackConfig] {
        var kept: [TrackConfig] = []
        for var track in tracks {
            switch await sourceVerdict(track.source, set: set, masterURL: masterURL) {
            case .success(let absolute):
                track.source = absolute
                kept.append(track)
            case .failure(let refusal):
                if refusal.isNew {
                    logger.log(.warn, "tracks backend track dropped", [
                        ("set", set.name), ("url", ProxyLogger.redactedURL(url)), ("track", track.id), ("reason", refusal.reason),
                    ])
                }
            }
        }
        return kept
    }

    /// Why a source was refused; `isNew` is false when the same host's refusal was already logged
    /// within the cache lifetime, so a refused host costs one warn line per TTL, not one per request.
    struct SourceRefusal: Error {
        var reason: String
        var isNew: Bool
    }

    private func sourceVerdict(_ source: String, set: SubtitleSet, masterURL: String) async -> Result<String, SourceRefusal> {
        let resolved = URLReference.resolve(source, against: masterURL)
        let host = resolved.flatMap { URLReference.origin(of: $0) != nil ? URLReference.host(of: $0) : nil }
        // Refusals are kept as verdicts too, so a refused source costs one warn line per TTL, not one per request.
        let key = "\(set.name)\n" + (host ?? "source \(resolved ?? source)")
        switch cache.hostVerdict(for: key) {
        case .allowed?:
            if let resolved { return .success(resolved) }
        case .refused(let reason)?:
            return .failure(SourceRefusal(reason: reason, isNew: false))
        case nil:
            break
        }
        let ttl = ConfigSeconds.duration(config.cache.tracksTTL)
        guard let absolute = resolved, let host else {
            let reason = "source \(ProxyLogger.redactedURL(source)) does not resolve to an http(s) URL against the master"
            cache.storeHostVerdict(.refused(reason), for: key, ttl: ttl)
            return .failure(SourceRefusal(reason: reason, isNew: true))
        }
        let hosts = config.embedded.allowHosts + set.sourceHosts
        guard hosts.contains(where: { $0.matches(host) }) else {
            let reason = "source host \(host) is on neither embedded.allow_hosts nor the set's source_hosts"
            cache.storeHostVerdict(.refused(reason), for: key, ttl: ttl)
            return .failure(SourceRefusal(reason: reason, isNew: true))
        }
        // IP literals on either list are vetted addresses, as they are for the embedded form.
        let policy = OriginAddressPolicy(
            ProxyConfig.EmbeddedOrigins(allowHosts: hosts, allowPrivateNetworks: config.embedded.allowPrivateNetworks), resolver: resolver)
        do {
            try await policy.check(host: host, slots: origin.exchangeSlots)
            cache.storeHostVerdict(.allowed, for: key, ttl: ttl)
            return .success(absolute)
        } catch OriginError.overloaded {
            // Load shedding says nothing about the host: refused this once, asked again next time.
            return .failure(SourceRefusal(reason: "source host \(host) not checked: too many origin fetches in flight", isNew: true))
        } catch {
            let reason = (error as? ProxyError)?.reason ?? "source host \(host) refused"
            cache.storeHostVerdict(.refused(reason), for: key, ttl: ttl)
            return .failure(SourceRefusal(reason: reason, isNew: true))
        }
    }
}
