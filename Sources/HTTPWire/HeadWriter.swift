/// Writes a response head into raw memory the event loop owns: each piece is a bounds check and a
/// copy, with no array growth or uniqueness checks per append. When the room runs out it stops writing
/// but keeps counting, so the caller learns the size needed and can retry with a larger buffer.
package struct HeadWriter {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>?
    @usableFromInline let capacity: Int
    /// Bytes written, or that would have been written had there been room.
    @usableFromInline package private(set) var count = 0

    @inlinable
    package init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress
        capacity = buffer.count
    }

    /// Whether everything appended fit.
    @inlinable
    package var fits: Bool { count <= capacity }

    @inlinable
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let end = count &+ bytes.count
        if end <= capacity, let base, let source = bytes.baseAddress {
            (base + count).update(from: source, count: bytes.count)
        }
        count = end
    }

    @inlinable
    package mutating func append(_ byte: UInt8) {
        if count < capacity, let base { base[count] = byte }
        count &+= 1
    }

    /// Appends a literal.
    @inlinable
    package mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    /// Appends text with CR, LF and other controls replaced by SP, so no value can split the response.
    @inlinable
    package mutating func appendSanitized(_ text: String) {
        HTTPHeaders.withBytes(text) { appendSanitized($0) }
    }

    /// Appends bytes with CR, LF and other controls replaced by SP.
    @inlinable
    package mutating func appendSanitized(_ bytes: UnsafeBufferPointer<UInt8>) {
        let start = count
        append(bytes)
        guard fits, let base else { return }
        for index in start..<count where HTTPSyntax.isControl(base[index]) { base[index] = 0x20 }
    }

    /// Appends a non-negative integer in decimal.
    @inlinable
    package mutating func appendDecimal(_ value: Int) {
        let value = max(0, value)
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        while divisor > 0 {
            append(UInt8(truncatingIfNeeded: value / divisor % 10) &+ 0x30)
            divisor /= 10
        }
    }
}
