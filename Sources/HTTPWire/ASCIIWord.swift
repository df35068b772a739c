/// Tests on eight bytes at once, read as one little- or big-endian word (the tests are per byte, so
/// the order does not matter). Each says "might": a false answer is certain, and a true one is checked
/// byte by byte by the caller. Scanning a head, a header value or a log field for the few bytes that
/// need attention then costs a word's worth of work per eight bytes.
public enum ASCIIWord {
    @inlinable static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// Whether the word might hold a byte below 0x20 or a DEL. A byte below 0x20 borrows in the first
    /// term, which bytes of 0x80 and up are masked out of; a DEL becomes 0 under the XOR and borrows in
    /// the second.
    @inlinable @inline(__always)
    public static func mayHoldControl(_ word: UInt64) -> Bool {
        let below = (word &- ones &* 0x20) & ~word & highs
        return below | zeroBytes(word ^ (ones &* 0x7F)) != 0
    }

    /// Whether the word might hold `byte`.
    @inlinable @inline(__always)
    public static func mayHold(_ byte: UInt8, in word: UInt64) -> Bool {
        zeroBytes(word ^ (ones &* UInt64(byte))) != 0
    }

    /// The high bit of each byte that is 0, and possibly of bytes just above one (a borrow).
    @inlinable @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highs
    }

    /// Whether any byte of `bytes` satisfies `isSpecial`, read a word at a time: a word for which
    /// `mightHold` is false is skipped whole, the last word overlaps the one before it, and text shorter
    /// than a word is padded with `a`, which `mightHold` must pass over (as every test above does).
    /// Only a word that might hold a special byte is looked at byte by byte.
    @inlinable
    public static func contains(
        in bytes: UnsafeBufferPointer<UInt8>, mightHold: (UInt64) -> Bool, where isSpecial: (UInt8) -> Bool
    ) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        guard bytes.count >= 8 else {
            var word: UInt64 = 0x6161_6161_6161_6161
            withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
            return mightHold(word) && bytes.contains(where: isSpecial)
        }
        var index = 0
        while true {
            let start = min(index, bytes.count &- 8)
            if mightHold(UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)),
               UnsafeBufferPointer(rebasing: bytes[start..<(start &+ 8)]).contains(where: isSpecial) {
                return true
            }
            index = start &+ 8
            if index == bytes.count { return false }
        }
    }
}
