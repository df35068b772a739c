/// Decodes gzip bodies (RFC 1952) under an output cap, so a small compressed body can never
/// expand past what the caller accepts (a gzip bomb stops at `maxOutputBytes`). Public for the inflater's
/// fuzz target (fuzz/Sources/FuzzInflate), which compares it with zlib.
public enum GzipDecoder {
    /// Whether decoding is implemented; when false, gzip bodies are refused.
    static let isAvailable = true

    /// The decoded bytes of every member, checked against each member's CRC-32 and size.
    public static func decode(_ bytes: [UInt8], maxOutputBytes: Int) throws(OriginError) -> [UInt8] {
        var output: [UInt8] = []
        var position = 0
        repeat {
            position = try skipHeader(bytes, from: position)
            var inflater = Inflater(input: bytes, position: position, maxOutputBytes: maxOutputBytes)
            let memberStart = output.count
            try inflater.inflate(into: &output)
            position = inflater.bytePosition
            // RFC 1952 §2.3.1: CRC32 and ISIZE, little-endian, after the compressed blocks.
            guard position + 8 <= bytes.count else { throw .badResponse("gzip body truncated") }
            let crc = readUInt32(bytes, at: position)
            let size = readUInt32(bytes, at: position + 4)
            position += 8
            guard crc == CRC32.checksum(output[memberStart...]) else { throw .badResponse("gzip checksum mismatch") }
            guard size == UInt32(truncatingIfNeeded: output.count - memberStart) else { throw .badResponse("gzip size mismatch") }
        // RFC 1952 §2.2: members may be concatenated; anything else after one is ignored, as gzip(1) does.
        } while position + 2 <= bytes.count && bytes[position] == 0x1F && bytes[position + 1] == 0x8B
        return output
    }

    /// Raw DEFLATE data (RFC 1951, no gzip wrapper) decoded under the same cap; what follows the final
    /// block is ignored.
    public static func inflate(raw bytes: [UInt8], maxOutputBytes: Int) throws(OriginError) -> [UInt8] {
        var output: [UInt8] = []
        var inflater = Inflater(input: bytes, position: 0, maxOutputBytes: maxOutputBytes)
        try inflater.inflate(into: &output)
        return output
    }

    /// The offset of the deflate data after a member header (RFC 1952 §2.3).
    static func skipHeader(_ bytes: [UInt8], from start: Int) throws(OriginError) -> Int {
        guard start + 10 <= bytes.count, bytes[start] == 0x1F, bytes[start + 1] == 0x8B else {
            throw .badResponse("not a gzip body")
        }
        guard bytes[start + 2] == 8 else { throw .badResponse("gzip method is not deflate") }
        let flags = bytes[start + 3]
        guard flags & 0xE0 == 0 else { throw .badResponse("gzip reserved flags set") }
        var position = start + 10
        if flags & 0x04 != 0 { // FEXTRA
            guard position + 2 <= bytes.count else { throw .badResponse("gzip body truncated") }
            position += 2 + (Int(bytes[position]) | Int(bytes[position + 1]) << 8)
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 { // FNAME, FCOMMENT: zero-terminated
            while position < bytes.count && bytes[position] != 0 { position += 1 }
            position += 1
        }
        if flags & 0x02 != 0 { // FHCRC: the low 16 bits of the CRC-32 of the header before it, checked as zlib does
            guard position + 2 <= bytes.count else { throw .badResponse("gzip body truncated") }
            let stored = UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
            guard stored == UInt16(truncatingIfNeeded: CRC32.checksum(bytes[start..<position])) else {
                throw .badResponse("gzip header checksum mismatch")
            }
            position += 2
        }
        guard position <= bytes.count else { throw .badResponse("gzip body truncated") }
        return position
    }

    static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}

/// CRC-32 as gzip uses it (RFC 1952 §8, polynomial 0xEDB88320).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }
}
