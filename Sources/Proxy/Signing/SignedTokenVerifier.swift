/// Checks a signed playback token (docs/signing.md), in an order that reads nothing an attacker sent
/// before it has to: the shape and key id first, the MAC over the bytes exactly as they are in the URL
/// next, and only a token whose MAC matches has its payload decoded, its expiry and tracks checked.
struct SignedTokenVerifier: Sendable {
    /// Keys by id, as their UTF-8 bytes.
    let keys: [String: [UInt8]]

    /// The longest token looked at: longer ones could not fit a request line (8 KiB) anyway.
    static let maximumTokenBytes = 8192

    init(signing: ProxyConfig.Signing) {
        var keys: [String: [UInt8]] = [:]
        for (id, secret) in signing.keys { keys[id] = Array(secret.utf8) }
        self.keys = keys
    }

    /// The token's contents, or why it is refused. `graceSeconds` is how long past its expiry it is still
    /// accepted: 0 for the master request, `signing.grace_seconds` for the subtitle URLs derived from it.
    func verify(_ token: String, now: Int64, graceSeconds: Int64) -> Result<SignedToken, SignedTokenRefusal> {
        authenticate(token).flatMap { token in Self.checkExpiry(token, now: now, graceSeconds: graceSeconds).map { token } }
    }

    /// Whether `token` is still accepted at `now`, `graceSeconds` past its expiry; checked on every
    /// request, including for a token whose MAC was verified before.
    static func checkExpiry(_ token: SignedToken, now: Int64, graceSeconds: Int64) -> Result<Void, SignedTokenRefusal> {
        // Unix seconds; the sum is checked, as `exp` is the signer's to choose.
        let (deadline, overflow) = token.expiry.addingReportingOverflow(max(0, graceSeconds))
        guard overflow || now < deadline else {
            return .failure(SignedTokenRefusal(.expired, graceSeconds > 0 ? "expired, and past its grace period" : "expired"))
        }
        return .success(())
    }

    /// The token's contents once its shape, key id and MAC check out, its expiry not yet looked at.
    func authenticate(_ token: String) -> Result<SignedToken, SignedTokenRefusal> {
        guard !keys.isEmpty else { return .failure(SignedTokenRefusal(.notConfigured, "signing is not configured")) }
        let bytes = Array(token.utf8)
        guard bytes.count <= Self.maximumTokenBytes else {
            return .failure(SignedTokenRefusal(.malformed, "malformed token: longer than \(Self.maximumTokenBytes) bytes"))
        }
        // {key id}.{payload}.{mac}: exactly two dots, none of the three parts empty.
        let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
        guard dots.count == 2, dots[0] > 0, dots[1] > dots[0] + 1, dots[1] < bytes.count - 1 else {
            return .failure(SignedTokenRefusal(.malformed, "malformed token: expected {key id}.{payload}.{signature}"))
        }
        let keyID = String(decoding: bytes[..<dots[0]], as: UTF8.self)
        guard keyID.utf8.count <= SignedToken.maximumKeyIDBytes, ConfigReader.isURLSafeName(keyID) else {
            return .failure(SignedTokenRefusal(.malformed, "malformed token: the key id is not 1 to 64 letters, digits, '-' and '_'"))
        }
        guard let key = keys[keyID] else {
            return .failure(SignedTokenRefusal(.unknownKey, "unknown key id \"\(keyID)\""))
        }
        // The MAC covers `{key id}.{payload}` as sent; the expected MAC is compared in its base64url form,
        // so a second spelling of the same 32 bytes (the unused low bits of the last character) is refused too.
        let signed = Array(bytes[..<dots[1]])
        let expected = Array(Base64URL.encode(HMACSHA256.authenticationCode(for: signed, key: key)).utf8)
        guard HMACSHA256.isEqualInConstantTime(expected, Array(bytes[(dots[1] + 1)...])) else {
            return .failure(SignedTokenRefusal(.badSignature, "bad signature"))
        }
        let payloadText = String(decoding: bytes[(dots[0] + 1)..<dots[1]], as: UTF8.self)
        guard let payload = Base64URL.decode(Substring(payloadText)) else {
            return .failure(SignedTokenRefusal(.malformed, "malformed token: the payload is not base64url"))
        }
        return SignedPayloadDecoder.token(payload, keyID: keyID)
    }
}
