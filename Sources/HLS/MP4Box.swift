/// One ISO BMFF box (ISO/IEC 14496-12 §4.2): its four-character type and where its payload lies.
struct MP4Box {
    /// The four-character code, big-endian packed (`moov` is 0x6D6F6F76).
    let type: UInt32
    /// Where the payload (after the size, type and any largesize) lies in the file.
    let payload: Range<Int>

    /// Lookups deeper than this are refused; real files nest about eight levels.
    static let maximumNestingDepth = 16

    /// Packs a four-character code such as `"moov"`.
    static func code(_ name: String) -> UInt32 {
        name.utf8.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The type as text, for error messages.
    static func name(_ code: UInt32) -> String {
        let scalars = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> $0) }
        return String(decoding: scalars.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// A reader over the payload.
    func reader(_ bytes: [UInt8]) -> ByteReader {
        ByteReader(bytes, range: payload)
    }

    /// The payload of a full box (§4.2: version and 24-bit flags first), and its version.
    func fullBoxReader(_ bytes: [UInt8]) throws(MediaError) -> (version: UInt8, reader: ByteReader) {
        var reader = reader(bytes)
        let version = try reader.readUInt8()
        try reader.skip(3)
        return (version, reader)
    }
}

/// Walks the boxes that sit side by side in one range (a file, or one box's payload).
struct MP4BoxIterator {
    private var reader: ByteReader

    init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        reader = ByteReader(bytes, range: range)
    }

    /// The next box; nil at the end. Fails on a size that is smaller than the header or overruns the range.
    mutating func next() throws(MediaError) -> MP4Box? {
        // Fewer than 8 bytes cannot hold a header: trailing padding, not a box.
        guard reader.remaining >= 8 else { return nil }
        let start = reader.offset
        let size32 = try reader.readUInt32()
        let type = try reader.readUInt32()
        let declared: UInt64
        switch size32 {
        case 0: declared = UInt64(reader.end - start)  // §4.2: size 0 means "to the end of the file/parent"
        case 1: declared = try reader.readUInt64()      // §4.2: size 1 means a 64-bit largesize follows
        default: declared = UInt64(size32)
        }
        let headerLength = reader.offset - start
        guard let size = Int(exactly: declared), size >= headerLength, size <= reader.end - start else {
            throw .invalidBoxSize(type: MP4Box.name(type))
        }
        let payload = try reader.readRange(size - headerLength)
        return MP4Box(type: type, payload: payload)
    }

    /// Every box in the range, in order.
    static func boxes(_ bytes: [UInt8], range: Range<Int>? = nil) throws(MediaError) -> [MP4Box] {
        var iterator = MP4BoxIterator(bytes, range: range)
        var boxes: [MP4Box] = []
        while let box = try iterator.next() { boxes.append(box) }
        return boxes
    }

    /// The first box of `type` in the range, or nil.
    static func first(_ type: UInt32, in bytes: [UInt8], range: Range<Int>? = nil) throws(MediaError) -> MP4Box? {
        var iterator = MP4BoxIterator(bytes, range: range)
        while let box = try iterator.next() {
            if box.type == type { return box }
        }
        return nil
    }

    /// The first box reached by following `path` (each code a child of the previous box), or nil.
    static func descendant(
        _ path: [UInt32], in bytes: [UInt8], range: Range<Int>? = nil
    ) throws(MediaError) -> MP4Box? {
        guard path.count <= MP4Box.maximumNestingDepth else { throw .nestingTooDeep }
        var current: MP4Box?
        var searchRange = range
        for code in path {
            guard let found = try first(code, in: bytes, range: searchRange) else { return nil }
            current = found
            searchRange = found.payload
        }
        return current
    }
}
