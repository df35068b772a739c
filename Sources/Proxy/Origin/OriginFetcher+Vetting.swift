import HTTPClient
import HTTPServer
import HTTPWire

/// How an origin request is vetted before it is sent (SPEC "SSRF", docs/security.md): the fields bound
/// to the mount's origin, redirects and, off the mount origins, addresses checked, a directory mount's
/// files confined. `fetch` and `fetchPrefix` send only requests made here.
extension OriginFetcher {
    /// The origin request `fetch` sends for `url`, vetted: its fields bound to the mount's origin, its
    /// redirects and (off the mount origins) its addresses checked, a directory mount's files confined.
    func vettedRequest(
        _ url: String, maxBytes: Int, mount: Mount?, request: HTTPRequest, extraHeaders: HTTPHeaders = HTTPHeaders(),
        operatorNamed: Bool = false, backendSourceHosts: [HostPattern]? = nil, method: HTTPMethod = .get,
        sourceProvenance: TrackProvenance? = nil
    ) async throws -> OriginRequest {
        // A token's or a backend's source is not the operator's: only under a mount's base URL does it
        // count as that mount (its injected headers, no address check); elsewhere on its host it does not.
        let untrustedSource = sourceProvenance == .signed || sourceProvenance == .backend
        let headerMount = untrustedSource && !(mount.map { Self.isUnderBase(url, of: $0) } ?? false) ? nil : mount
        var originRequest = makeOriginRequest(url, method: method, mount: headerMount, request: request, maxBodyBytes: maxBytes)
        originRequest.everyHopHeaders = extraHeaders
        if untrustedSource, let headerMount {
            // Redirects too: a hop on the mount's host outside its base path gets none of its fields.
            originRequest.headersScope = { Self.isUnderBase($0, of: headerMount) }
        }
        let backendRules = backendSourceHosts.map {
            ProxyConfig.EmbeddedOrigins(allowHosts: config.embedded.allowHosts + $0, allowPrivateNetworks: config.embedded.allowPrivateNetworks)
        }
        // A signed token's source, and every redirect of its fetch: no allowlisted literal opens internal space.
        let signedPolicy = sourceProvenance == .signed ? addressPolicy.ignoringListedAddresses() : nil
        vetRedirects(
            &originRequest, embedded: mount == nil || backendRules != nil, rules: backendRules, policy: signedPolicy, mountBaseOnly: untrustedSource)
        if case .directory(let root) = mount?.origin, url.hasPrefix("file:") {
            do {
                originRequest.fileDirectory = try mountDirectories.directory(root: root)
            } catch {
                throw OriginError.notFoundFile
            }
        }
        if let backendRules {
            // A backend is not the operator (SPEC "SSRF"): its source is held to the embedded rules now, at
            // fetch time, whatever the host resolved to when the answer was read, and connects to exactly
            // the addresses vetted here (DNS rebinding). IP literals on either list count as vetted.
            guard let host = OriginURL.connectionHost(of: url) else { throw OriginError.invalidRequest("no host to connect to") }
            guard backendRules.allowHosts.contains(where: { $0.matches(host) }) else {
                throw ProxyError.forbidden("source host is on neither embedded.allow_hosts nor the set's source_hosts")
            }
            originRequest.addresses = try await OriginAddressPolicy(backendRules, resolver: resolver).check(host: host, slots: origin.exchangeSlots)
        } else if !operatorNamed, untrustedSource ? !isUnderMountBase(url) : !isOnMountOrigin(url) {
            // The host the connection will use; a URL it cannot name one for is refused, never left unvetted.
            guard let host = OriginURL.connectionHost(of: url) else { throw OriginError.invalidRequest("no host to connect to") }
            // A mount origin or a URL written in the config is the operator's choice; any other host was
            // reached by name from the allowlist (or a playlist), so its resolved addresses are vetted
            // too, and the fetch connects to exactly those.
            originRequest.addresses = try await (signedPolicy ?? addressPolicy).check(host: host, slots: origin.exchangeSlots)
        }
        return originRequest
    }

    /// Every redirect hop to a host that is not a mount origin is vetted by address (an origin is not
    /// trusted to send us into the local network) and connects to the addresses vetted; in the
    /// embedded form it must be allowlisted too. `rules` replaces `embedded` for a backend-named source;
    /// `policy` replaces the address policy (a signed token's sources). `mountBaseOnly` (a token's or a
    /// backend's source): a hop skips the address check only under a mount's base URL, as the first
    /// hop does, never merely on a mount's host.
    func vetRedirects(
        _ originRequest: inout OriginRequest, embedded: Bool, rules: ProxyConfig.EmbeddedOrigins? = nil, policy: OriginAddressPolicy? = nil,
        mountBaseOnly: Bool = false
    ) {
        let allowHosts = (rules ?? config.embedded).allowHosts
        let policy = policy ?? rules.map { OriginAddressPolicy($0, resolver: resolver) } ?? addressPolicy
        let slots = origin.exchangeSlots
        let mountOrigins = Set(config.mounts.compactMap { mount -> String? in
            if case .http(let base) = mount.origin { return OriginURL.connectionOrigin(of: base) }
            return nil
        })
        originRequest.allowRedirect = { target in
            guard let host = OriginURL.connectionHost(of: target) else { return false }
            return !embedded || allowHosts.contains(where: { $0.matches(host) })
        }
        originRequest.redirectAddresses = { target in
            if mountBaseOnly {
                if isUnderMountBase(target) { return .resolvedWhenConnecting }
            } else if let origin = OriginURL.connectionOrigin(of: target), mountOrigins.contains(origin) {
                return .resolvedWhenConnecting
            }
            guard let host = OriginURL.connectionHost(of: target) else { return .refused }
            // The lookup's thread takes an exchange slot, as the first hop's does: none free sheds the
            // request (503). Any other failure (no address, a refused one, no lookup thread) refuses
            // the hop: fail closed.
            do {
                return .vetted(try await policy.check(host: host, slots: slots))
            } catch OriginError.overloaded(let limit) {
                return .shed(limit: limit)
            } catch {
                return .refused
            }
        }
    }

    /// The SSRF address policy, resolving names with the fetcher's resolver.
    var addressPolicy: OriginAddressPolicy { OriginAddressPolicy(config.embedded, resolver: resolver) }
}
