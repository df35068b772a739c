/// Percent-decoding of a request path (RFC 3986 §2.1) that refuses what a router must never see.
enum PercentDecoding {
    /// Decodes `%XX` escapes. Nil for a bad or truncated escape, an encoded NUL, or bytes that are not UTF-8.
    static func decodePath<C: Collection<UInt8>>(_ raw: C) -> String? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(raw.count)
        var index = raw.startIndex
        var sawEscape = false
        while index != raw.endIndex {
            let byte = raw[index]
            raw.formIndex(after: &index)
            guard byte == 0x25 else {
                decoded.append(byte)
                continue
            }
            guard index != raw.endIndex, let high = hexValue(raw[index]) else { return nil }
            raw.formIndex(after: &index)
            guard index != raw.endIndex, let low = hexValue(raw[index]) else { return nil }
            raw.formIndex(after: &index)
            let value = high << 4 | low
            if value == 0 { return nil }
            decoded.append(value)
            sawEscape = true
        }
        if !sawEscape { return String(decoding: decoded, as: UTF8.self) }
        return String(validating: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}
