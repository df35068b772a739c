/// Bytes appended into raw memory of its own, grown by doubling: a line of about twenty pieces (an
/// access log line, a redirect's Location) costs a bounds check and a copy per piece, where an array's
/// per-append uniqueness and capacity checks cost more than the copies themselves.
///
/// Every append makes room first (a size that cannot be represented traps rather than being
/// written past), and the memory is freed with the value, so no pointer outlives it.
///
/// Inlinable: the callers are in other modules, and a call per piece would cost more than the piece.
public struct GrowableByteBuffer: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var written: Int
    /// Bytes appended so far.
    @inlinable public var count: Int { written }

    /// An empty buffer with room for `capacity` bytes (at least 16).
    @inlinable
    public init(capacity: Int) {
        written = 0
        self.capacity = max(16, capacity)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    @inlinable
    deinit {
        base.deallocate()
    }

    /// Calls `body` with the bytes appended so far, valid for the call.
    @inlinable
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes appended so far, copied into an array.
    @inlinable
    public var bytes: [UInt8] { withBytes { Array($0) } }

    /// Makes room for `extra` more bytes.
    @inlinable @inline(__always)
    public mutating func reserve(_ extra: Int) {
        // Checked arithmetic: a sum that overflows traps here instead of skipping the growth.
        let needed = count + extra
        guard needed > capacity else { return }
        grow(to: needed)
    }

    @usableFromInline
    mutating func grow(to needed: Int) {
        var grown = capacity
        while grown < needed { grown = grown > Int.max / 2 ? needed : grown * 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.initialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }

    /// Appends `buffer`'s bytes.
    @inlinable @inline(__always)
    public mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress, !buffer.isEmpty else { return }
        reserve(buffer.count)
        (base + count).initialize(from: source, count: buffer.count)
        written += buffer.count
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        (base + count).initialize(to: byte)
        written += 1
    }

    /// Appends a literal's UTF-8 bytes.
    @inlinable @inline(__always)
    public mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append($0) }
    }

    /// Appends an array's bytes.
    @inlinable
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends text's UTF-8 bytes: in one copy when the string has them contiguous (native strings do).
    @inlinable
    public mutating func append(utf8 text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            for byte in text.utf8 { append(byte) }
        }
    }

    /// Appends a substring's UTF-8 bytes, as `append(utf8:)` does.
    @inlinable
    public mutating func append(utf8 text: Substring) {
        if text.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            for byte in text.utf8 { append(byte) }
        }
    }
}
