/// Byte classes of RFC 9110 §5.6 and RFC 9112, as lookup functions on raw bytes.
public enum HTTPSyntax {
    /// tchar: "!#$%&'*+-.^_`|~", DIGIT, ALPHA (RFC 9110 §5.6.2).
    @inlinable
    public static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
        default: return false
        }
    }

    /// Controls other than HTAB, CR and LF, and DEL: never valid anywhere in a request head.
    @inlinable
    public static func isForbiddenInHead(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
    }

    /// Controls other than HTAB, and DEL: replaced by SP in what the server writes, so no value can
    /// split a head.
    @inlinable
    public static func isControl(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 || byte == 0x7F
    }

    /// Bytes allowed in a request-target: visible ASCII except `#` (a fragment is never sent, RFC 9112 §3.2).
    @inlinable
    public static func isTargetByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != 0x23
    }

    /// Whether `bytes` is a non-empty token, by a bit table: every header field written or read
    /// passes its name through this.
    @inlinable
    public static func isToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        var all: UInt64 = 1
        for byte in bytes {
            // Bytes 128 and up are never token bytes: their table word is 0.
            let bits = byte < 64 ? tokenBitsLow : byte < 128 ? tokenBitsHigh : 0
            all &= bits &>> UInt64(byte & 63)
        }
        return all & 1 == 1
    }

    /// `isTokenByte` for bytes 0-63 and 64-127, one bit a byte (literals, so reading them costs
    /// nothing; `HeaderListTests` holds them to `isTokenByte`).
    @usableFromInline static let tokenBitsLow: UInt64 = 0x03FF_6CFA_0000_0000
    @usableFromInline static let tokenBitsHigh: UInt64 = 0x57FF_FFFF_C7FF_FFFE

    /// Whether `bytes` holds a control byte (`isControl`), eight bytes at a time.
    package static func containsControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        ASCIIWord.contains(in: bytes, mightHold: ASCIIWord.mayHoldControl, where: isControl)
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these are exactly the bytes of `other` (a plain compare of two runs, where the generic
    /// `elementsEqual` steps an iterator per byte): request tokens and path segments are matched so.
    public func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard let base = baseAddress, let otherBase = other.baseAddress else { return true }
        return ByteSearch.equal(base, otherBase, count: count)
    }

    /// Whether these are exactly the UTF-8 bytes of `literal`.
    public func hasSameBytes(as literal: StaticString) -> Bool {
        literal.withUTF8Buffer { hasSameBytes(as: $0) }
    }
}

extension StringProtocol {
    /// Whether the text's UTF-8 holds `byte`: a plain loop over contiguous storage when the text has it
    /// (native strings do), which the per-request checks for escapes need to be cheap.
    public func containsUTF8(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? utf8.contains(byte)
    }
}

extension String {
    /// As `StringProtocol.containsUTF8`, over the String's own bytes: no generic call through the
    /// protocol for each check (a directory-mount file asks this of its path).
    public func containsUTF8(_ byte: UInt8) -> Bool {
        let bytes = utf8.span
        for index in bytes.indices where bytes[index] == byte { return true }
        return false
    }
}

extension Substring {
    /// Without leading and trailing SP/HT (RFC 9110 §5.6.3 OWS).
    package func trimmingOWS() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
