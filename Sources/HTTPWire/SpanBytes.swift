/// Checked views of received bytes for the request readers: they index a `Span`, every access
/// bounds-checked, and reach the measured raw primitives (memchr, the header block's copy) only here.
extension ByteSearch {
    /// The first index of `byte` in `bytes` at or after `start` (memchr over the span's memory).
    @inlinable
    public static func firstIndex(of byte: UInt8, in bytes: Span<UInt8>, from start: Int = 0) -> Int? {
        bytes.withUnsafeBufferPointer { firstIndex(of: byte, in: $0, from: start) }
    }
}

extension ByteSearch {
    /// The index of the first byte of `bytes[start..<end]` that `HTTPSyntax.isControl` names (CR, LF,
    /// NUL, DEL, any control but HTAB), or `end` when there is none: eight bytes at a time
    /// (`ASCIIWord.mayHoldControl`), a word that might hold one looked at byte by byte. The head
    /// scanner crosses each line's ordinary bytes with this, where a byte loop cost about seven
    /// instructions a byte.
    @inlinable
    public static func firstControl(in bytes: Span<UInt8>, from start: Int, to end: Int) -> Int {
        precondition(start >= 0 && start <= end && end <= bytes.count, "byte range out of bounds")
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return end }
            var index = start
            while end &- index >= 8 {
                if ASCIIWord.mayHoldControl(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                    for offset in index..<(index &+ 8) where HTTPSyntax.isControl(base[offset]) { return offset }
                }
                index &+= 8
            }
            while index < end, !HTTPSyntax.isControl(base[index]) { index &+= 1 }
            return index
        }
    }
}

extension ByteSearch {
    /// The index of the first byte of `bytes` at or after `start` that can matter to a path's dot
    /// segments and escapes (`isPathSignificant`: "%", ".", SP, a control, DEL, anything from 0x80
    /// up), or `bytes.count` when there is none: eight bytes at a time, a word that might hold one
    /// looked at byte by byte. The router reads every request's path for these, where a byte loop cost
    /// about ten instructions a byte.
    @inlinable
    public static func firstPathSignificant(in bytes: Span<UInt8>, from start: Int) -> Int {
        precondition(start >= 0 && start <= bytes.count, "start out of bounds")
        return bytes.withUnsafeBufferPointer { buffer in
            let end = buffer.count
            guard let base = buffer.baseAddress else { return end }
            var index = start
            while end &- index >= 8 {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & ASCIIWord.highs != 0 || ASCIIWord.mayHoldControl(word) || ASCIIWord.mayHold(0x20, in: word)
                    || ASCIIWord.mayHold(0x25, in: word) || ASCIIWord.mayHold(0x2E, in: word) {
                    for offset in index..<(index &+ 8) where isPathSignificant(base[offset]) { return offset }
                }
                index &+= 8
            }
            while index < end, !isPathSignificant(base[index]) { index &+= 1 }
            return index
        }
    }

    /// "%", ".", SP and below, DEL and above.
    @inlinable
    public static func isPathSignificant(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte >= 0x7F || byte == 0x25 || byte == 0x2E
    }
}

extension HTTPSyntax {
    /// Whether every byte of `bytes` is a request-target byte (`isTargetByte`: visible ASCII but `#`),
    /// eight at a time: a word that might hold another (a control, SP, `#`, DEL, a high bit) is looked
    /// at byte by byte. Every request line's target is checked so, where a byte loop cost about seven
    /// instructions a byte.
    @inlinable
    public static func allTargetBytes(_ bytes: Span<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return true }
            let end = buffer.count
            var index = 0
            while end &- index >= 8 {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & ASCIIWord.highs != 0 || ASCIIWord.mayHoldControl(word) || ASCIIWord.mayHold(0x20, in: word)
                    || ASCIIWord.mayHold(0x23, in: word) {
                    for offset in index..<(index &+ 8) where !isTargetByte(base[offset]) { return false }
                }
                index &+= 8
            }
            while index < end {
                if !isTargetByte(base[index]) { return false }
                index &+= 1
            }
            return true
        }
    }
}

extension HTTPSyntax {
    /// Whether `bytes` is a non-empty token (RFC 9110 §5.6.2), by the same bit table.
    @inlinable
    public static func isToken(_ bytes: Span<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        var all: UInt64 = 1
        for index in bytes.indices {
            let byte = bytes[index]
            let bits = byte < 64 ? tokenBitsLow : byte < 128 ? tokenBitsHigh : 0
            all &= bits &>> UInt64(byte & 63)
        }
        return all & 1 == 1
    }
}

extension String {
    /// The bytes as UTF-8 (ill-formed sequences repaired), as `String(decoding:as:)` reads them.
    @inlinable
    package init(utf8 bytes: Span<UInt8>) {
        self = bytes.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }
}

extension HTTPMethod {
    /// The method for a token from the wire; the common ones share the static values' storage.
    package init(token: Span<UInt8>) {
        self = token.withUnsafeBufferPointer { HTTPMethod(token: $0[...]) }
    }
}

extension FramingFieldName {
    /// The kind of a received field name.
    package init(_ name: Span<UInt8>) {
        self = name.withUnsafeBufferPointer { FramingFieldName($0) }
    }
}

extension Array where Element == UInt8 {
    /// A copy of the bytes, for input kept past the read that brought it.
    @inlinable
    package init(copying bytes: Span<UInt8>) {
        self = bytes.withUnsafeBufferPointer { Array($0) }
    }

    /// Appends a copy of the bytes.
    @inlinable
    package mutating func append(copying bytes: Span<UInt8>) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }
}

extension HTTPHeaders {
    /// Appends a field the request parser accepted: its name is a token of the given kind.
    package mutating func appendParsed(name: Span<UInt8>, value: Span<UInt8>, kind: FramingFieldName) {
        name.withUnsafeBufferPointer { name in
            value.withUnsafeBufferPointer { value in appendParsed(name: name, value: value, kind: kind) }
        }
    }
}
