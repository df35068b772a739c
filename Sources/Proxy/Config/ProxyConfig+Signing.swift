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
}
