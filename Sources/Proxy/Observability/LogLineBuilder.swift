import HTTPServer
import HTTPWire

/// Builds one JSON log line as UTF-8 bytes: text is copied into one buffer and numbers are written
/// digit by digit, so an access line (written for every request) costs a few copies and goes out as
/// bytes, rather than a String append per piece.
struct LogLineBuilder: ~Copyable {
    // Raw memory, grown by doubling: an access line takes about twenty appends, and an array's
    // per-append uniqueness and capacity checks cost more than the copies themselves.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Whether `base` was allocated here (and is freed here), rather than lent by the caller.
    private var ownsMemory: Bool
    /// Bytes written so far.
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = max(16, capacity)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
        ownsMemory = true
    }

    /// A builder that writes into the caller's `memory` (on the stack, say) and moves to memory of its
    /// own only if the line outgrows it: an access line then costs no allocation at all.
    init(startingIn memory: UnsafeMutableBufferPointer<UInt8>) {
        if let start = memory.baseAddress, memory.count > 0 {
            base = start
            capacity = memory.count
            ownsMemory = false
        } else {
            capacity = 16
            base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            ownsMemory = true
        }
    }

    deinit {
        if ownsMemory { base.deallocate() }
    }

    /// The bytes written, valid for the call.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The line as text.
    var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        let (needed, overflow) = count.addingReportingOverflow(extra)
        guard needed > capacity, !overflow else { return }
        grow(to: needed)
    }

    private mutating func grow(to needed: Int) {
        var grown = capacity
        while grown < needed { grown = grown > Int.max / 2 ? needed : grown * 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: count)
        if ownsMemory { base.deallocate() }
        base = moved
        capacity = grown
        ownsMemory = true
    }

    @inline(__always)
    private mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress, !buffer.isEmpty else { return }
        reserve(buffer.count)
        (base + count).update(from: source, count: buffer.count)
        count += buffer.count
    }

    @inline(__always)
    private mutating func append(byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append($0) }
    }

    /// Appends text as it is (the caller knows it needs no escaping). Labelled so a literal picks the
    /// StaticString overload rather than being made into a String.
    mutating func append(contentsOf text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            for byte in text.utf8 { append(byte: byte) }
        }
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
        reserve(4)
        append(byte: UInt8(ascii: "."))
        append(byte: UInt8(truncatingIfNeeded: value / 100) &+ 0x30)
        append(byte: UInt8(truncatingIfNeeded: value / 10 % 10) &+ 0x30)
        append(byte: UInt8(truncatingIfNeeded: value % 10) &+ 0x30)
    }

    /// Appends `text` as a JSON string (RFC 8259 §7); text that needs no escape is copied in one piece.
    mutating func appendQuoted(_ text: String) {
        let plain = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard !Self.needsEscaping(utf8) else { return false }
            reserve(utf8.count + 2)
            append(byte: UInt8(ascii: "\""))
            append(utf8)
            append(byte: UInt8(ascii: "\""))
            return true
        }
        guard plain != true else { return }
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

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F
    }

    /// Whether any byte needs an escape, eight bytes at a time: only a word that might hold a control,
    /// quote or backslash is looked at byte by byte. Paths and addresses rarely have any.
    static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        ASCIIWord.contains(in: bytes, mightHold: { word in
            ASCIIWord.mayHoldControl(word) || ASCIIWord.mayHold(0x22, in: word) || ASCIIWord.mayHold(0x5C, in: word)
        }, where: needsEscape)
    }}

extension LogLineBuilder {
    /// Appends bytes already known to be valid UTF-8 that needs no escaping.
    mutating func append(bytesOf other: [UInt8]) {
        other.withUnsafeBufferPointer { append($0) }
    }
}
