/// A DEFLATE decoder (RFC 1951) in the style of zlib's puff: canonical Huffman codes decoded
/// bit by bit. Small and exact rather than fast; bodies here are playlists and subtitle files.
struct Inflater {
    private let input: [UInt8]
    private var position: Int
    private var bitBuffer: UInt32 = 0
    private var bitCount = 0
    private let maxOutputBytes: Int

    init(input: [UInt8], position: Int, maxOutputBytes: Int) {
        self.input = input
        self.position = position
        self.maxOutputBytes = max(0, maxOutputBytes)
    }

    /// The byte after the last one consumed (the stream ends on a byte boundary).
    var bytePosition: Int { position }

    /// Decodes blocks until the final one, appending to `output` (which may already hold earlier members).
    mutating func inflate(into output: inout [UInt8]) throws(OriginError) {
        let start = output.count
        var isFinal = false
        while !isFinal {
            isFinal = try bits(1) == 1
            switch try bits(2) {
            case 0: try copyStored(into: &output)
            case 1: try decodeBlock(into: &output, start: start, literals: Inflater.fixedLiterals, distances: Inflater.fixedDistances)
            case 2:
                let (literals, distances) = try readDynamicCodes()
                try decodeBlock(into: &output, start: start, literals: literals, distances: distances)
            default: throw .badResponse("corrupt gzip body")
            }
        }
        // Drop the partial byte: what follows the last block is byte-aligned.
        bitBuffer = 0
        bitCount = 0
    }

    /// `count` bits (at most 16), least significant first (RFC 1951 §3.1.1).
    mutating func bits(_ count: Int) throws(OriginError) -> Int {
        while bitCount < count {
            guard position < input.count else { throw .badResponse("gzip body truncated") }
            bitBuffer |= UInt32(input[position]) << UInt32(bitCount)
            position += 1
            bitCount += 8
        }
        let value = Int(bitBuffer & ((1 << UInt32(count)) - 1))
        bitBuffer >>= UInt32(count)
        bitCount -= count
        return value
    }

    /// RFC 1951 §3.2.4: LEN, NLEN, then LEN raw bytes.
    private mutating func copyStored(into output: inout [UInt8]) throws(OriginError) {
        bitBuffer = 0
        bitCount = 0
        guard position + 4 <= input.count else { throw .badResponse("gzip body truncated") }
        let length = Int(input[position]) | Int(input[position + 1]) << 8
        let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
        guard length == ~complement & 0xFFFF else { throw .badResponse("corrupt gzip body") }
        position += 4
        guard position + length <= input.count else { throw .badResponse("gzip body truncated") }
        guard length <= maxOutputBytes - output.count else { throw .tooLarge(limit: maxOutputBytes) }
        output.append(contentsOf: input[position..<(position + length)])
        position += length
    }

    /// One symbol of `code`, read bit by bit (canonical codes, RFC 1951 §3.2.2).
    private mutating func decode(_ code: HuffmanCode) throws(OriginError) -> Int {
        var value = 0, first = 0, index = 0
        for length in 1...15 {
            value |= try bits(1)
            let count = code.counts[length]
            let offset = value - first
            if offset >= 0 && offset < count && index + offset < code.symbols.count {
                return code.symbols[index + offset]
            }
            index += count
            first = (first + count) << 1
            value <<= 1
        }
        throw .badResponse("corrupt gzip body")
    }

    /// Literals, lengths and distances until end-of-block (RFC 1951 §3.2.5).
    private mutating func decodeBlock(into output: inout [UInt8], start: Int, literals: HuffmanCode, distances: HuffmanCode) throws(OriginError) {
        while true {
            let symbol = try decode(literals)
            if symbol < 256 {
                guard output.count < maxOutputBytes else { throw .tooLarge(limit: maxOutputBytes) }
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < Inflater.lengthBase.count else { throw .badResponse("corrupt gzip body") }
            let length = Inflater.lengthBase[lengthIndex] + (try bits(Inflater.lengthExtra[lengthIndex]))
            let distanceSymbol = try decode(distances)
            guard distanceSymbol < Inflater.distanceBase.count else { throw .badResponse("corrupt gzip body") }
            let distance = Inflater.distanceBase[distanceSymbol] + (try bits(Inflater.distanceExtra[distanceSymbol]))
            guard distance <= output.count - start else { throw .badResponse("corrupt gzip body") }
            guard length <= maxOutputBytes - output.count else { throw .tooLarge(limit: maxOutputBytes) }
            // Byte by byte: a copy may overlap what it produces (distance < length).
            var from = output.count - distance
            for _ in 0..<length {
                output.append(output[from])
                from += 1
            }
        }
    }

    /// RFC 1951 §3.2.7: the code-length code, then literal/length and distance code lengths.
    private mutating func readDynamicCodes() throws(OriginError) -> (HuffmanCode, HuffmanCode) {
        let literalCount = try bits(5) + 257
        let distanceCount = try bits(5) + 1
        let codeLengthCount = try bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw .badResponse("corrupt gzip body") }
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            codeLengthLengths[Inflater.codeLengthOrder[index]] = try bits(3)
        }
        let codeLengthCode = try HuffmanCode(lengths: codeLengthLengths, isCodeLengthCode: true)
        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try decode(codeLengthCode)
            var repeated = 0, value = 0
            switch symbol {
            case 0...15:
                lengths.append(symbol)
                continue
            case 16:
                guard let previous = lengths.last else { throw .badResponse("corrupt gzip body") }
                value = previous
                repeated = 3 + (try bits(2))
            case 17: repeated = 3 + (try bits(3))
            default: repeated = 11 + (try bits(7))
            }
            guard lengths.count + repeated <= literalCount + distanceCount else { throw .badResponse("corrupt gzip body") }
            lengths.append(contentsOf: repeatElement(value, count: repeated))
        }
        // A block without an end-of-block code could never finish.
        guard lengths[256] != 0 else { throw .badResponse("corrupt gzip body") }
        let literals = try HuffmanCode(lengths: Array(lengths[0..<literalCount]))
        let distances = try HuffmanCode(lengths: Array(lengths[literalCount...]))
        return (literals, distances)
    }
}
