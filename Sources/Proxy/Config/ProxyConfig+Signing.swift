extension ProxyConfig {
    /// Keys for signed playback URLs (JSON `signing`, docs/signing.md); no keys means the signed form is off.
    public struct Signing: Sendable, Hashable {
        /// Secrets by key id (`keys`): several at once let a new key come in before the old one goes.
        /// Each key is its string's UTF-8 bytes, at least `minimumKeyBytes` long.
        public var keys: [String: String]
        /// Seconds past a token's expiry that its subtitle URLs still answer (`grace_seconds`), so a film
        /// started just before expiry plays to its end; the master request itself is refused at expiry.
        public var graceSeconds: Int64

        /// The shortest key accepted: HMAC-SHA256 keys shorter than its 32-byte output weaken it
        /// (RFC 2104 §3), and a short string is a guessable one.
        public static let minimumKeyBytes = 32
        /// The default `grace_seconds`: six hours.
        public static let defaultGraceSeconds: Int64 = 21_600

        /// Makes signing settings; none by default, so the signed form is off unless configured.
        public init(keys: [String: String] = [:], graceSeconds: Int64 = Signing.defaultGraceSeconds) {
            self.keys = keys
            self.graceSeconds = graceSeconds
        }

        /// Whether any key is configured.
        public var isEnabled: Bool { !keys.isEmpty }

        /// The key docs/signing.md's worked example and config.example.json publish, so the example
        /// starts with no environment: anyone can sign with it, so it is warned about wherever it is found.
        public static let publishedExampleKey = "example-key-do-not-use-0123456789abcdef"

        /// One warning per key id whose secret is the published example key (start-up and `--check-config`).
        public var publishedExampleKeyWarnings: [String] {
            keys.filter { $0.value == Self.publishedExampleKey }.keys.sorted().map { id in
                "signing.keys.\(id): is the published example key (docs/signing.md): anyone can sign playback URLs with it;"
                    + " never deploy it, use \"${HLS_PROXY_SIGNING_KEY}\" set to `openssl rand -base64 32`"
            }
        }
    }

    /// Whether `host` (the effective listen host) takes connections only from this machine: 127.0.0.0/8,
    /// ::1 or localhost. Anything else (0.0.0.0, a LAN address, a name) may face other machines.
    static func isLoopbackHost(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }) else {
            return false
        }
        return parts[0] == "127"
    }

    /// This config with every key whose secret is the published example key dropped when the listen
    /// host is not loopback, and one error line per key dropped: the example key signs any URL for
    /// anyone, so it is honoured only where no other machine can reach the listener (docs/signing.md).
    public func confiningPublishedExampleKey() -> (config: ProxyConfig, errors: [String]) {
        guard !Self.isLoopbackHost(listen.host) else { return (self, []) }
        let published = signing.keys.filter { $0.value == Signing.publishedExampleKey }.keys.sorted()
        guard !published.isEmpty else { return (self, []) }
        var confined = self
        for id in published { confined.signing.keys[id] = nil }
        let errors = published.map { id in
            "signing.keys.\(id): is the published example key (docs/signing.md) and the proxy listens on \(listen.host), not loopback:"
                + " the key is dropped and signed URLs it would sign answer 403; set a real key with \"${HLS_PROXY_SIGNING_KEY}\""
                + " (`openssl rand -base64 32`)"
        }
        return (confined, errors)
    }
}
