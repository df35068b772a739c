/// A canonical Huffman code: how many codes of each length, and the symbols in code order.
struct HuffmanCode {
    var counts = [Int](repeating: 0, count: 16)
    var symbols: [Int]

    /// Builds the code from per-symbol lengths (0 = unused). Refuses what zlib refuses (inflate_table):
    /// over-subscribed sets, and incomplete ones except a literal/length or distance code whose only
    /// code is one bit long (RFC 1951 §3.2.7 allows a single distance code). A set with no codes at all
    /// is built, and fails when a symbol is decoded from it.
    init(lengths: [Int], isCodeLengthCode: Bool = false) throws(OriginError) {
        symbols = [Int](repeating: 0, count: lengths.count)
        for length in lengths {
            guard (0...15).contains(length) else { throw .badResponse("corrupt gzip body") }
            counts[length] += 1
        }
        var left = 1
        for length in 1...15 {
            left = left * 2 - counts[length]
            guard left >= 0 else { throw .badResponse("corrupt gzip body") }
        }
        let longest = (1...15).last { counts[$0] != 0 } ?? 0
        if left > 0, longest != 0, isCodeLengthCode || longest != 1 { throw .badResponse("corrupt gzip body") }
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
    }
}

extension Inflater {
    // RFC 1951 §3.2.5 tables.
    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                               2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    // RFC 1951 §3.2.7: the order code-length code lengths are sent in.
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    // RFC 1951 §3.2.6: the fixed codes.
    static let fixedLiterals: HuffmanCode = {
        let lengths = [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
            + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8)
        return (try? HuffmanCode(lengths: lengths)) ?? HuffmanCode.empty
    }()
    // All 32 five-bit codes, as zlib builds them: 30 and 31 are codes that decode to an invalid distance.
    static let fixedDistances: HuffmanCode = (try? HuffmanCode(lengths: [Int](repeating: 5, count: 32))) ?? HuffmanCode.empty
}

extension HuffmanCode {
    /// A code with no symbols: decoding with it always fails (never used; the fixed tables are valid).
    static let empty = HuffmanCode(emptyWith: ())

    private init(emptyWith: Void) {
        symbols = []
    }
}
