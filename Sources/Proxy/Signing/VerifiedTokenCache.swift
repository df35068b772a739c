import Synchronization

/// Tokens whose MAC, payload and master already checked out, by the token's bytes, so a film's many
/// `.vtt` requests run HMAC-SHA256 and the JSON decode once per token, not once each. Only what does
/// not change with time is kept: the expiry is compared on every request (`SignedTokenVerifier.checkExpiry`).
/// One per handler, built with its keys: a reload that drops a key starts with an empty cache, so a
/// token signed with it no longer verifies.
final class VerifiedTokenCache: Sendable {
    /// Tokens kept at most; past it the least recently used is forgotten (a token is under 8 KiB).
    static let defaultCapacity = 1024

    private let table: Mutex<RecentlyUsedTable<String, SignedResponder.Verified>>
    /// Tokens verified in full (MAC and decode), for tests and the bench.
    private let verifications = Atomic<Int>(0)
    var fullVerifications: Int { verifications.load(ordering: .relaxed) }

    init(capacity: Int = defaultCapacity) {
        table = Mutex(RecentlyUsedTable(capacity: capacity))
    }

    /// The verified contents of `token`, from the cache or from `verify` (kept only when it succeeds:
    /// a refusal is recomputed, so nothing an attacker sends fills the table).
    func verified(
        _ token: String, verify: () -> Result<SignedResponder.Verified, SignedTokenRefusal>
    ) -> Result<SignedResponder.Verified, SignedTokenRefusal> {
        if let hit = table.withLock({ $0.value(for: token) }) { return .success(hit) }
        verifications.add(1, ordering: .relaxed)
        let result = verify()
        if case .success(let verified) = result {
            table.withLock { _ = $0.set(verified, for: token) }
        }
        return result
    }

    /// How many tokens are kept.
    var count: Int { table.withLock { $0.count } }
}
