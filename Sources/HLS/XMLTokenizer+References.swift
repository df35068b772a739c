extension XMLTokenizer {
    /// The five entities XML 1.0 §4.6 predefines; any other name needs a DTD, which is not read.
    private static let predefinedEntities: [String: UInt8] = [
        "amp": UInt8(ascii: "&"), "lt": UInt8(ascii: "<"), "gt": UInt8(ascii: ">"),
        "quot": UInt8(ascii: "\""), "apos": UInt8(ascii: "'"),
    ]

    /// Character data or an attribute value with references decoded and line ends normalized (§2.11);
    /// in an attribute, literal tabs and line ends also become spaces (§3.3.3). A character reference to
    /// a code point XML forbids (NUL, a surrogate, beyond U+10FFFF) becomes U+FFFD.
    func decodeCharacterData(_ range: Range<Int>, inAttribute: Bool) throws(SubtitleError) -> [UInt8] {
        let slice = bytes[range]
        guard slice.contains(UInt8(ascii: "&")) else { return normalizingLineEnds(slice, inAttribute: inAttribute) }
        var output: [UInt8] = []
        output.reserveCapacity(slice.count)
        var position = range.lowerBound
        while position < range.upperBound {
            guard let ampersand = bytes[position..<range.upperBound].firstIndex(of: UInt8(ascii: "&")) else {
                output += normalizingLineEnds(bytes[position..<range.upperBound], inAttribute: inAttribute)
                break
            }
            output += normalizingLineEnds(bytes[position..<ampersand], inAttribute: inAttribute)
            // The longest legal reference is `&#x10FFFF;`; names of predefined entities are shorter.
            let searchEnd = min(range.upperBound, ampersand + 32)
            guard let semicolon = bytes[(ampersand + 1)..<searchEnd].firstIndex(of: UInt8(ascii: ";")) else {
                throw malformed("'&' that starts no reference", at: ampersand)
            }
            let reference = bytes[(ampersand + 1)..<semicolon]
            if reference.first == UInt8(ascii: "#") {
                guard let scalar = Self.characterReference(reference.dropFirst()) else {
                    throw malformed("malformed character reference", at: ampersand)
                }
                TextEncoding.appendUTF8(Self.isAllowedCharacter(scalar) ? scalar : 0xFFFD, to: &output)
            } else if let byte = Self.predefinedEntities[String(decoding: reference, as: UTF8.self)] {
                output.append(byte)
            } else {
                throw malformed("undeclared entity &\(String(decoding: reference.prefix(16), as: UTF8.self));", at: ampersand)
            }
            position = semicolon + 1
        }
        return output
    }

    /// CR LF and lone CR become LF (§2.11); in attribute values tab, CR and LF become a space (§3.3.3).
    func normalizingLineEnds(_ slice: ArraySlice<UInt8>, inAttribute: Bool) -> [UInt8] {
        guard slice.contains(where: { $0 == 0x0D || (inAttribute && ($0 == 0x0A || $0 == 0x09)) }) else { return Array(slice) }
        var output: [UInt8] = []
        output.reserveCapacity(slice.count)
        var previousWasCR = false
        for byte in slice {
            if byte == 0x0A, previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = byte == 0x0D
            switch byte {
            case 0x0D, 0x0A: output.append(inAttribute ? 0x20 : 0x0A)
            case 0x09: output.append(inAttribute ? 0x20 : 0x09)
            default: output.append(byte)
            }
        }
        return output
    }

    /// The code point of `123` or `x7B` (the part after `&#`); nil when empty, not digits, or too large.
    private static func characterReference(_ digits: ArraySlice<UInt8>) -> UInt32? {
        let isHex = digits.first == UInt8(ascii: "x")
        let body = isHex ? digits.dropFirst() : digits
        guard !body.isEmpty, body.count <= 8 else { return nil }
        var value: UInt32 = 0
        for byte in body {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where isHex: digit = UInt32(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where isHex: digit = UInt32(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            // Eight digits at most: 16^8 and 10^8 both fit in UInt32 only as long as the value stays small.
            let (shifted, overflow) = value.multipliedReportingOverflow(by: isHex ? 16 : 10)
            guard !overflow else { return nil }
            value = shifted &+ digit
        }
        return value
    }

    /// XML 1.0 §2.2 Char: tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD, U+10000-U+10FFFF.
    private static func isAllowedCharacter(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Bytes that may appear in a name: anything but whitespace and the markup delimiters. Non-ASCII
    /// bytes are accepted as the NameChar ranges are, without checking each range.
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "="),
             UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "&"), UInt8(ascii: "?"), UInt8(ascii: "!"), 0x00:
            return false
        default:
            return true
        }
    }

    /// §2.3: a name cannot start with a digit, `-` or `.`.
    static func isDigitOrNamePunctuation(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
