/// The character encodings subtitle files come in, and their conversion to UTF-8.
///
/// Real SRT files come as UTF-8 with or without a BOM, UTF-16 with a BOM, or Windows-1252 (HLS-NOTES.md).
public enum TextEncoding: Sendable, Equatable {
    /// UTF-8, with or without a BOM.
    case utf8
    /// UTF-16 little-endian (BOM FF FE, or NUL in every odd byte).
    case utf16LittleEndian
    /// UTF-16 big-endian (BOM FE FF, or NUL in every even byte).
    case utf16BigEndian
    /// Windows-1252: the fallback for bytes that are not valid UTF-8.
    case windows1252

    /// Guesses the encoding: a BOM wins, then NUL-byte patterns for UTF-16, then UTF-8 validity.
    public static func detect(_ bytes: [UInt8]) -> TextEncoding {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return .utf8 }
        if bytes.starts(with: [0xFF, 0xFE]) { return .utf16LittleEndian }
        if bytes.starts(with: [0xFE, 0xFF]) { return .utf16BigEndian }
        // Text never holds NUL, so NUL in every other byte of an ASCII-heavy prefix means BOM-less UTF-16.
        let pairs = min(bytes.count / 2, 32)
        if pairs >= 2 {
            let evenNULs = (0..<pairs).filter { bytes[$0 * 2] == 0 }.count
            let oddNULs = (0..<pairs).filter { bytes[$0 * 2 + 1] == 0 }.count
            if oddNULs * 2 >= pairs && evenNULs == 0 { return .utf16LittleEndian }
            if evenNULs * 2 >= pairs && oddNULs == 0 { return .utf16BigEndian }
        }
        return isValidUTF8(bytes[...]) ? .utf8 : .windows1252
    }

    /// The text as UTF-8 without a BOM; undecodable sequences become U+FFFD.
    public static func utf8Bytes(from bytes: [UInt8]) -> [UInt8] {
        let encoding = detect(bytes)
        switch encoding {
        case .utf8:
            let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
            return isValidUTF8(body) ? Array(body) : Array(String(decoding: body, as: UTF8.self).utf8)
        case .utf16LittleEndian, .utf16BigEndian:
            let hasBOM = bytes.starts(with: encoding == .utf16LittleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF])
            return decodeUTF16(hasBOM ? bytes[2...] : bytes[...], littleEndian: encoding == .utf16LittleEndian)
        case .windows1252:
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + bytes.count / 8)
            for byte in bytes { appendUTF8(windows1252Scalar(byte), to: &output) }
            return output
        }
    }

    /// Whether the bytes are well-formed UTF-8 (Unicode §3.9 table 3-7: no overlongs, surrogates or > U+10FFFF).
    static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var secondRange: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; secondRange = 0xA0...0xBF
            case 0xED: length = 3; secondRange = 0x80...0x9F
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xF0: length = 4; secondRange = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; secondRange = 0x80...0x8F
            default: return false
            }
            guard bytes.endIndex - index >= length, secondRange.contains(bytes[index + 1]) else { return false }
            for continuation in (index + 2)..<(index + length) where !(0x80...0xBF).contains(bytes[continuation]) {
                return false
            }
            index += length
        }
        return true
    }

    private static func decodeUTF16(_ bytes: ArraySlice<UInt8>, littleEndian: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var pendingHigh: UInt32?
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let (first, second) = (UInt32(bytes[index]), UInt32(bytes[index + 1]))
            let unit = littleEndian ? second << 8 | first : first << 8 | second
            index += 2
            switch unit {
            case 0xD800...0xDBFF:
                if pendingHigh != nil { appendUTF8(0xFFFD, to: &output) }
                pendingHigh = unit
            case 0xDC00...0xDFFF:
                if let high = pendingHigh {
                    appendUTF8(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00), to: &output)
                } else {
                    appendUTF8(0xFFFD, to: &output)
                }
                pendingHigh = nil
            default:
                if pendingHigh != nil { appendUTF8(0xFFFD, to: &output) }
                pendingHigh = nil
                appendUTF8(unit, to: &output)
            }
        }
        // An unpaired high surrogate or an odd trailing byte is a truncated character.
        if pendingHigh != nil || index < bytes.endIndex { appendUTF8(0xFFFD, to: &output) }
        return output
    }

    /// Appends one scalar value (already known to be <= U+10FFFF and not a surrogate) as UTF-8.
    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            output.append(UInt8(truncatingIfNeeded: scalar))
        case ..<0x800:
            output.append(0xC0 | UInt8(truncatingIfNeeded: scalar >> 6))
            output.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
        case ..<0x10000:
            output.append(0xE0 | UInt8(truncatingIfNeeded: scalar >> 12))
            output.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F))
            output.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
        default:
            output.append(0xF0 | UInt8(truncatingIfNeeded: (scalar >> 18) & 0x07))
            output.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 12) & 0x3F))
            output.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F))
            output.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
        }
    }
}
