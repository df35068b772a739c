/// Makes signed playback tokens, as `hls-subtitle-proxy sign` and tools/sign.py do (docs/signing.md):
/// `{key id}.{base64url(payload)}.{base64url(HMAC-SHA256(key, "{key id}.{base64url(payload)}"))}`.
enum SignedTokenSigner {
    /// The payload object in canonical JSON; `tracks` are track objects as the config spells them.
    static func payload(expiry: Int64, master: String, tracks: [ConfigValue], subtitles: [String]?, defaultTrack: String?) -> [UInt8] {
        var members: [String: ConfigValue] = ["exp": .integer(expiry), "master": .string(master), "tracks": .array(tracks)]
        if let subtitles { members["subtitles"] = .array(subtitles.map(ConfigValue.string)) }
        if let defaultTrack { members["default"] = .string(defaultTrack) }
        return CanonicalJSON.bytes(.object(members))
    }

    /// The token for `payload`, signed with `key`'s UTF-8 bytes.
    static func token(keyID: String, key: String, payload: [UInt8]) -> String {
        let signed = keyID + "." + Base64URL.encode(payload)
        return signed + "." + Base64URL.encode(HMACSHA256.authenticationCode(for: Array(signed.utf8), key: Array(key.utf8)))
    }
}
