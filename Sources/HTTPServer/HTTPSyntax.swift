/// Byte classes of RFC 9110 §5.6 and RFC 9112, as lookup functions on raw bytes.
enum HTTPSyntax {
    /// tchar: "!#$%&'*+-.^_`|~", DIGIT, ALPHA (RFC 9110 §5.6.2).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
        default: return false
        }
    }

    /// Controls other than HTAB, CR and LF, and DEL: never valid anywhere in a request head.
    static func isForbiddenInHead(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
    }

    /// Bytes allowed in a request-target: visible ASCII except `#` (a fragment is never sent, RFC 9112 §3.2).
    static func isTargetByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != 0x23
    }

    /// Whether `bytes` is a non-empty token.
    static func isToken<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenByte)
    }
}

extension StringProtocol {
    /// Whether the text's UTF-8 holds `byte`: a plain loop over contiguous storage when the text has it
    /// (native strings do), which the per-request checks for escapes need to be cheap.
    public func containsUTF8(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? utf8.contains(byte)
    }
}
