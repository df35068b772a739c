/// One line of a WebVTT file, found in a single pass over its bytes: where it is, whether it holds `-->`
/// (W3C WebVTT §6.1: such a line is a timing line wherever it appears), and where the next line starts.
struct WebVTTLine {
    /// The line's bytes, its terminator excluded.
    let range: Range<Int>
    /// Whether `-->` occurs anywhere in the line.
    let hasArrow: Bool
    /// Where the next line starts: past this line's CRLF, LF or CR.
    let next: Int

    /// True for a line with no bytes at all (spaces make a line non-blank in WebVTT).
    var isEmpty: Bool { range.isEmpty }

    /// Bit n set for the bytes below 64 that stop the scan: LF, CR and `>`.
    private static let stops: UInt64 = 1 << 0x0A | 1 << 0x0D | 1 << UInt64(UInt8(ascii: ">"))

    /// The line that starts at `start`, nil when no bytes are left there.
    init?(in bytes: Span<UInt8>, at start: Int) {
        self.init(in: bytes, at: start, resumingAt: start, arrowSeen: false)
    }

    /// The line that starts at `start`, whose bytes before `resume` were already read by the caller: no
    /// line break among them, and `arrowSeen` tells whether `-->` was.
    init?(in bytes: Span<UInt8>, at start: Int, resumingAt resume: Int, arrowSeen: Bool) {
        guard start >= 0, start < bytes.count, resume >= start else { return nil }
        var position = resume
        var hasArrow = arrowSeen
        while position < bytes.count {
            let byte = bytes[position]
            // Letters and most other text sort above `>`; below it, one bit test finds LF, CR and `>`.
            if byte > UInt8(ascii: ">") || Self.stops & (1 << UInt64(byte)) == 0 {
                position += 1
                continue
            }
            if byte != UInt8(ascii: ">") { break }
            if position - start >= 2, bytes[position - 1] == UInt8(ascii: "-"), bytes[position - 2] == UInt8(ascii: "-") {
                hasArrow = true
            }
            position += 1
        }
        var next = position
        // §6.1: CRLF is one line break; a lone CR or LF is one too.
        if position < bytes.count {
            next += bytes[position] == 0x0D && position + 1 < bytes.count && bytes[position + 1] == 0x0A ? 2 : 1
        }
        self.range = start..<position
        self.hasArrow = hasArrow
        self.next = next
    }
}
