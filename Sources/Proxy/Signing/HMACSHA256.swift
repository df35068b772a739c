/// HMAC-SHA256 (RFC 2104, with SHA-256 from FIPS 180-4): signed playback URLs carry one over their
/// payload, keyed with a configured secret (docs/signing.md).
enum HMACSHA256 {
    /// SHA-256's block size in bytes (RFC 2104 §2: B).
    private static let blockSize = 64

    /// The 32-byte MAC of `message` under `key`.
    static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        // RFC 2104 §3: a key longer than B is hashed first; any key is then zero-padded to B bytes.
        var block = key.count > blockSize ? SHA256.digest(key) : key
        block.append(contentsOf: [UInt8](repeating: 0, count: blockSize - block.count))
        let inner = SHA256.digest(block.map { $0 ^ 0x36 } + message)
        return SHA256.digest(block.map { $0 ^ 0x5C } + inner)
    }

    /// Whether two MACs are equal, in time that depends only on their lengths: a comparison that stops
    /// at the first differing byte tells an attacker, by its timing, how many leading bytes were right.
    static func isEqualInConstantTime(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        guard first.count == second.count else { return false }
        var difference: UInt8 = 0
        for index in first.indices { difference |= first[index] ^ second[index] }
        return difference == 0
    }
}
