import HTTPServer
import HTTPWire

/// Builds one JSON log line as UTF-8 bytes: text is copied into one buffer and numbers are written
/// digit by digit, so an access line (written for every request) costs a few copies and goes out as
/// bytes, rather than a String append per piece. The buffer (`GrowableByteBuffer`) grows before every
/// piece it is short of room for, however long the line.
struct LogLineBuilder: ~Copyable {
    private var buffer: GrowableByteBuffer

    /// An empty line with room for `capacity` bytes (an access line fits in the default).
    init(capacity: Int = 256) {
        buffer = GrowableByteBuffer(capacity: capacity)
    }

    /// Bytes written so far.
    var count: Int { buffer.count }

    /// The bytes written so far.
    var bytes: [UInt8] { buffer.bytes }

    /// The line as text.
    var text: String { buffer.withBytes { String(decoding: $0, as: UTF8.self) } }

    @inline(__always)
    private mutating func append(byte: UInt8) {
        buffer.append(byte)
    }

    @inline(__always)
    mutating func append(_ literal: StaticString) {
        buffer.append(literal)
    }

    /// Appends text as it is (the caller knows it needs no escaping). Labelled so a literal picks the
    /// StaticString overload rather than being made into a String.
    mutating func append(contentsOf text: String) {
        buffer.append(utf8: text)
    }

    /// Appends an integer in decimal.
    mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(byte: UInt8(ascii: "-")) }
        // The magnitude as unsigned: Int.min has no positive Int.
        let magnitude = value.magnitude
        var divisor: UInt = 1
        while divisor <= magnitude / 10 { divisor *= 10 }
        while divisor > 0 {
            append(byte: UInt8(truncatingIfNeeded: magnitude / divisor % 10) &+ 0x30)
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
        // No origin was asked: the usual case for origin_ms.
        if value == 0 {
            append("0.000")
            return
        }
        let micros = Int(value * 1000 + 0.5)
        appendDecimal(micros / 1000)
        appendFraction(micros % 1000)
    }

    /// Appends `.` and a fraction of 0 to 999 as exactly three digits.
    mutating func appendFraction(_ thousandths: Int) {
        let value = min(max(thousandths, 0), 999)
        buffer.reserve(4)
        append(byte: UInt8(ascii: "."))
        append(byte: UInt8(truncatingIfNeeded: value / 100) &+ 0x30)
        append(byte: UInt8(truncatingIfNeeded: value / 10 % 10) &+ 0x30)
        append(byte: UInt8(truncatingIfNeeded: value % 10) &+ 0x30)
    }

    /// Appends `text` as a JSON string (RFC 8259 §7); text that needs no escape is copied in one piece.
    mutating func appendQuoted(_ text: String) {
        if !ASCIIWord.containsJSONEscape(text) {
            buffer.reserve(text.utf8.count + 2)
            append(byte: UInt8(ascii: "\""))
            buffer.append(utf8: text)
            append(byte: UInt8(ascii: "\""))
            return
        }
        append(byte: UInt8(ascii: "\""))
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
                append(byte: digits[Int(byte >> 4)])
                append(byte: digits[Int(byte & 0x0F)])
            default:
                // Bytes of multi-byte characters pass through unchanged: JSON text is UTF-8.
                append(byte: byte)
            }
        }
        append(byte: UInt8(ascii: "\""))
    }
}

extension LogLineBuilder {
    /// Appends bytes already known to be valid UTF-8 that needs no escaping.
    mutating func append(bytesOf other: [UInt8]) {
        buffer.append(other)
    }
}
