import Testing
@testable import Proxy

/// The MAC of signed playback URLs, against the published vectors: FIPS 180-4 (NIST's examples) for
/// SHA-256 and every RFC 4231 case for HMAC-SHA256.
@Suite struct HMACSHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        // 448 bits: two blocks, the padding spilling into the second.
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        // 896 bits.
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func sha256MatchesTheNISTExamples(message: String, digest: String) {
        #expect(Self.hex(SHA256.digest(Self.bytes(message))) == digest)
    }

    @Test func sha256OfOneMillionLetterAMatchesNIST() {
        #expect(Self.hex(SHA256.digest([UInt8](repeating: 0x61, count: 1_000_000)))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// RFC 4231 §4.2 to §4.8: short keys, a key shorter than the output, 25 key bytes, and the 131-byte
    /// keys longer than a block (hashed first) with short and long data.
    @Test(arguments: [
        ([UInt8](repeating: 0x0b, count: 20), bytes("Hi There"),
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (bytes("Jefe"), bytes("what do ya want for nothing?"),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (Array(1...25), [UInt8](repeating: 0xcd, count: 50),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        ([UInt8](repeating: 0xaa, count: 131), bytes("Test Using Larger Than Block-Size Key - Hash Key First"),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        ([UInt8](repeating: 0xaa, count: 131),
         bytes("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."),
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ] as [([UInt8], [UInt8], String)])
    func hmacMatchesTheRFC4231Vectors(key: [UInt8], data: [UInt8], mac: String) {
        #expect(Self.hex(HMACSHA256.authenticationCode(for: data, key: key)) == mac)
    }

    /// RFC 4231 §4.6: the vector gives only the leftmost 128 bits.
    @Test func hmacTruncatedTo128BitsMatchesRFC4231TestCase5() {
        let mac = HMACSHA256.authenticationCode(for: Self.bytes("Test With Truncation"), key: [UInt8](repeating: 0x0c, count: 20))
        #expect(Self.hex(Array(mac.prefix(16))) == "a3b6167473100ee06e0c796c2955552b")
    }

    @Test func aKeyOfExactlyOneBlockIsUsedAsItIs() {
        // 64 bytes is not "longer than B": hashing it first would give a different MAC.
        let key = [UInt8](repeating: 0x42, count: 64)
        let mac = HMACSHA256.authenticationCode(for: Self.bytes("block"), key: key)
        #expect(mac != HMACSHA256.authenticationCode(for: Self.bytes("block"), key: SHA256.digest(key)))
        // Python's hmac module gives the same.
        #expect(Self.hex(mac) == "d0872612ed5c12fc5e68284a4272c6e452c08b0b037d648b4def52fa4aefb52f")
    }

    @Test func macsCompareEqualOnlyWhenEveryByteMatches() {
        let mac = HMACSHA256.authenticationCode(for: Self.bytes("payload"), key: Self.bytes("key"))
        #expect(HMACSHA256.isEqualInConstantTime(mac, mac))
        for position in [0, 15, 31] {
            var changed = mac
            changed[position] ^= 0x01
            #expect(!HMACSHA256.isEqualInConstantTime(mac, changed), "a change at byte \(position) went unseen")
        }
        #expect(!HMACSHA256.isEqualInConstantTime(mac, Array(mac.prefix(31))))
        #expect(!HMACSHA256.isEqualInConstantTime(mac, []))
    }
}
