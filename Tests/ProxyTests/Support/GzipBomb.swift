/// A gzip member that inflates to `size` zero bytes from a few hundred kilobytes: one literal, then
/// <length 258, distance 1> matches in fixed-Huffman DEFLATE (RFC 1951 §3.2.6). The trailer's CRC is
/// left 0: a reader that enforces its size cap stops long before it gets there.
enum GzipBomb {
    static func make(size: Int) -> [UInt8] {
        var writer = BitWriter()
        writer.write(1, bits: 1)  // BFINAL
        writer.write(1, bits: 2)  // BTYPE 01: fixed Huffman
        writer.writeCode(0b0011_0000, length: 8)  // literal 0
        for _ in 0..<((size - 1) / 258) {
            writer.writeCode(0b1100_0101, length: 8)  // length code 285 = 258
            writer.writeCode(0, length: 5)  // distance code 0 = 1
        }
        writer.writeCode(0, length: 7)  // end of block (256)
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        let isize = UInt32(truncatingIfNeeded: size)
        let trailer: [UInt8] = [0, 0, 0, 0] + (0..<4).map { UInt8(truncatingIfNeeded: isize >> (8 * $0)) }
        return header + writer.bytes + trailer
    }

    /// Packs bits least-significant first, as DEFLATE does; Huffman codes go most-significant first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        var used = 8

        mutating func write(_ value: UInt32, bits: Int) {
            for index in 0..<bits { put(UInt8((value >> index) & 1)) }
        }

        mutating func writeCode(_ code: UInt32, length: Int) {
            for index in stride(from: length - 1, through: 0, by: -1) { put(UInt8((code >> index) & 1)) }
        }

        private mutating func put(_ bit: UInt8) {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            bytes[bytes.count - 1] |= bit << used
            used += 1
        }
    }
}
