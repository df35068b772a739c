import Proxy

/// libFuzzer entry: signed playback URLs (docs/signing.md). The first byte picks what the rest is:
/// - even: a path under `/_hls-proxy/v1/` as a player could send it (the token, its track, its leaf);
///   routing and verification must never trap, and nothing unsigned may verify;
/// - odd: a payload, signed with the configured key, so the bytes reach the JSON parser, the payload
///   fields and the config's track decoder behind a MAC that matches; the outcome must be a verified
///   token or a refusal for what the payload says, never a signature or key refusal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSignedToken(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if data[0] % 2 == 0 {
        let text = "/_hls-proxy/v1/" + String(decoding: rest, as: UTF8.self)
        let (path, query) = split(text)
        if case .verified(let master, _) = SignedTokenFuzzing.checking.check(rawPath: path, query: query) {
            fatalError("an unsigned path verified: \(path) (master \(master))")
        }
        return 0
    }
    guard let token = SignedTokenFuzzing.checking.token(payload: rest, keyID: "k1") else { fatalError("no key k1") }
    switch SignedTokenFuzzing.checking.check(rawPath: SignedURLChecking.masterPath(token: token), query: nil) {
    case .verified(let master, let trackIDs):
        guard master.hasPrefix("/"), !trackIDs.isEmpty else { fatalError("verified without a master or tracks: \(master)") }
    case .refused(let status, let reason):
        guard status == 403, let reason, ["malformed", "expired", "invalid_track", "invalid_master"].contains(reason) else {
            fatalError("a correctly signed payload was refused with \(status) \(reason ?? "no reason")")
        }
    case .notSigned(let status):
        fatalError("a signed master path did not route as signed (\(status.map(String.init) ?? "no status"))")
    }
    return 0
}

private func split(_ target: String) -> (String, String?) {
    guard let mark = target.firstIndex(of: "?") else { return (target, nil) }
    return (String(target[..<mark]), String(target[target.index(after: mark)...]))
}

enum SignedTokenFuzzing {
    /// A mount, the embedded form on, one key; the clock in 2026, so tokens may be live or expired.
    static let checking: SignedURLChecking = {
        let json = """
            { "mounts": { "sample": { "origin": "http://origin.test/vod" } },
              "embedded": { "allow_hosts": ["cdn.test"] },
              "signing": { "keys": { "k1": "example-key-do-not-use-0123456789abcdef" } } }
            """
        do {
            return SignedURLChecking(config: try ProxyConfig.decode(Array(json.utf8), environment: [:]), now: 1_795_000_000)
        } catch {
            fatalError("fuzz config does not load: \(error)")
        }
    }()
}
