/// Builds one JSON log line as UTF-8 bytes: text is copied into one buffer and numbers are written
/// digit by digit, so an access line (written for every request) costs a few copies and a single
/// String at the end rather than a String append per piece.
struct LogLineBuilder {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The line as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends text as it is (the caller knows it needs no escaping).
    mutating func append(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: text.utf8)
        }
    }

    /// Appends an integer in decimal.
    mutating func appendDecimal(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned: Int.min has no positive Int.
        let magnitude = value.magnitude
        var divisor: UInt = 1
        while divisor <= magnitude / 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: magnitude / divisor % 10) &+ 0x30)
            divisor /= 10
        }
    }

    /// Appends a non-negative millisecond figure with three decimals (microsecond resolution), or
    /// `null` for a value that is not one.
    mutating func appendMilliseconds(_ value: Double) {
        guard value.isFinite, value >= 0, value < 1e12 else {
            append("null")
            return
        }
        let micros = Int(value * 1000 + 0.5)
        appendDecimal(micros / 1000)
        appendFraction(micros % 1000)
    }

    /// Appends `.` and a fraction of 0 to 999 as exactly three digits.
    mutating func appendFraction(_ thousandths: Int) {
        let value = min(max(thousandths, 0), 999)
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(truncatingIfNeeded: value / 100) &+ 0x30)
        bytes.append(UInt8(truncatingIfNeeded: value / 10 % 10) &+ 0x30)
        bytes.append(UInt8(truncatingIfNeeded: value % 10) &+ 0x30)
    }

    /// Appends `text` as a JSON string (RFC 8259 §7); text that needs no escape is copied in one piece.
    mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        let plain = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard !utf8.contains(where: Self.needsEscape) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain != true {
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case UInt8(ascii: "\n"): append("\\n")
                case UInt8(ascii: "\r"): append("\\r")
                case UInt8(ascii: "\t"): append("\\t")
                case _ where byte < 0x20 || byte == 0x7F:
                    let digits = Array("0123456789abcdef".utf8)
                    append("\\u00")
                    bytes.append(digits[Int(byte >> 4)])
                    bytes.append(digits[Int(byte & 0x0F)])
                default:
                    // Bytes of multi-byte characters pass through unchanged: JSON text is UTF-8.
                    bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F
    }
}

extension LogLineBuilder {
    /// Appends bytes already known to be valid UTF-8 that needs no escaping.
    mutating func append(bytesOf other: [UInt8]) {
        bytes.append(contentsOf: other)
    }
}
