/// A cursor over untrusted bytes: every read is bounds-checked and fails with `MediaError.truncated`.
///
/// It reads inside `offset..<end` of a shared array, so reading a box never copies the file.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int
    let end: Int

    /// A reader over `range`, clamped to the array so a lying range cannot reach outside it.
    init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        self.bytes = bytes
        let wanted = range ?? bytes.indices
        let lower = min(max(wanted.lowerBound, 0), bytes.count)
        let upper = min(max(wanted.upperBound, lower), bytes.count)
        self.offset = lower
        self.end = upper
    }

    /// Bytes left before `end`.
    var remaining: Int { end - offset }

    /// True when nothing is left to read.
    var isAtEnd: Bool { offset >= end }

    mutating func skip(_ count: Int) throws(MediaError) {
        guard count >= 0, count <= remaining else { throw .truncated }
        offset += count
    }

    mutating func readUInt8() throws(MediaError) -> UInt8 {
        guard offset < end else { throw .truncated }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readUInt16() throws(MediaError) -> UInt16 {
        UInt16(truncatingIfNeeded: try readBigEndian(byteCount: 2))
    }

    mutating func readUInt24() throws(MediaError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readBigEndian(byteCount: 3))
    }

    mutating func readUInt32() throws(MediaError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readBigEndian(byteCount: 4))
    }

    mutating func readUInt64() throws(MediaError) -> UInt64 {
        try readBigEndian(byteCount: 8)
    }

    /// The next `count` bytes as a range into `bytes`, for sub-readers and payloads.
    mutating func readRange(_ count: Int) throws(MediaError) -> Range<Int> {
        guard count >= 0, count <= remaining else { throw .truncated }
        defer { offset += count }
        return offset..<(offset + count)
    }

    /// The next `count` bytes; only called with counts already checked against `remaining`.
    mutating func readBytes(_ count: Int) throws(MediaError) -> ArraySlice<UInt8> {
        bytes[try readRange(count)]
    }

    private mutating func readBigEndian(byteCount: Int) throws(MediaError) -> UInt64 {
        guard byteCount <= remaining else { throw .truncated }
        var value: UInt64 = 0
        for index in offset..<(offset + byteCount) {
            value = value << 8 | UInt64(bytes[index])
        }
        offset += byteCount
        return value
    }
}
