/// The `signing` section: key ids and secrets for signed playback URLs, and the subtitle grace period.
enum SigningDecoder {
    static func signing(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> ProxyConfig.Signing {
        var signing = ProxyConfig.Signing()
        guard let members = reader.object(value, at: path, keys: ["keys", "grace_seconds"]) else { return signing }
        let keysPath = path.key("keys")
        if let keys = reader.anyObject(members["keys"], at: keysPath) {
            if keys.isEmpty { reader.report(keysPath, "lists no keys: give at least one, e.g. {\"k1\": \"${HLS_PROXY_SIGNING_KEY}\"}") }
            for id in keys.keys.sorted() {
                let keyPath = keysPath.key(id)
                // The key id travels in every token before its payload (docs/signing.md), so it is a URL-safe name.
                guard ConfigReader.isURLSafeName(id), id.utf8.count <= SignedToken.maximumKeyIDBytes else {
                    reader.report(keyPath, "key id \(ConfigReader.quoted(id)) must be 1 to \(SignedToken.maximumKeyIDBytes) letters, digits, '-' and '_'")
                    continue
                }
                guard let secret = reader.string(keys[id], at: keyPath) else {
                    if keys[id] == .null { reader.report(keyPath, "expected a string, got null") }
                    continue
                }
                // Never quoted back: the message names the length only, not the secret.
                guard secret.utf8.count >= ProxyConfig.Signing.minimumKeyBytes else {
                    reader.report(keyPath, "is \(secret.utf8.count) bytes; a signing key needs at least \(ProxyConfig.Signing.minimumKeyBytes) (for example `openssl rand -base64 32`)")
                    continue
                }
                signing.keys[id] = secret
            }
        } else if members["keys"] == nil || members["keys"] == .null {
            reader.report(keysPath, "is required: signing needs at least one key")
        }
        if let grace = reader.integer(members["grace_seconds"], at: path.key("grace_seconds")) {
            // A year at most, as every other span in the config (ConfigSeconds.ceiling).
            if grace >= 0 && grace <= Int64(ConfigSeconds.ceiling) {
                signing.graceSeconds = grace
            } else {
                reader.report(path.key("grace_seconds"), "must be between 0 and \(Int64(ConfigSeconds.ceiling)) seconds, got \(grace)")
            }
        }
        return signing
    }
}
