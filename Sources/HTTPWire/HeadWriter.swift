/// Writes a response head into raw memory the event loop owns: each piece is a bounds check and a
/// copy, with no array growth or uniqueness checks per append. When the room runs out it stops writing
/// but keeps counting, so the caller learns the size needed and can retry with a larger buffer.
public struct HeadWriter {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>?
    @usableFromInline let capacity: Int
    /// Bytes written, or that would have been written had there been room.
    @inlinable public var count: Int { written }
    @usableFromInline var written = 0

    /// A writer into `buffer`, which must outlive it.
    @inlinable
    public init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress
        capacity = buffer.count
    }

    /// Whether everything appended fit.
    @inlinable
    public var fits: Bool { count <= capacity }

    /// Appends bytes (counted even when they no longer fit).
    @inlinable
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let end = written &+ bytes.count
        if end <= capacity, let base, let source = bytes.baseAddress {
            (base + written).update(from: source, count: bytes.count)
        }
        written = end
    }

    /// Appends one byte (counted even when it no longer fits).
    @inlinable
    public mutating func append(_ byte: UInt8) {
        if written < capacity, let base { base[written] = byte }
        written &+= 1
    }

    /// Appends a literal.
    @inlinable
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    /// Appends text with CR, LF and other controls replaced by SP, so no value can split the response.
    @inlinable
    public mutating func appendSanitized(_ text: String) {
        HTTPHeaders.withBytes(text) { appendSanitized($0) }
    }

    /// Appends bytes with CR, LF and other controls replaced by SP.
    @inlinable
    public mutating func appendSanitized(_ bytes: UnsafeBufferPointer<UInt8>) {
        let start = written
        append(bytes)
        guard fits, let base else { return }
        for index in start..<written where HTTPSyntax.isControl(base[index]) { base[index] = 0x20 }
    }

    /// Appends a non-negative integer in decimal.
    @inlinable
    public mutating func appendDecimal(_ value: Int) {
        let value = max(0, value)
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        while divisor > 0 {
            append(UInt8(truncatingIfNeeded: value / divisor % 10) &+ 0x30)
            divisor /= 10
        }
    }
}
