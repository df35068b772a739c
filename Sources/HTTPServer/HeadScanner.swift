import HTTPWire
/// Finds the end of a request head in bytes that arrive piece by piece, enforcing the size limits and
/// rejecting control bytes as soon as they arrive; resumes where it stopped, so a slow sender costs O(n).
struct HeadScanner {
    /// Bytes of the head examined so far.
    private(set) var scanned = 0
    /// Where the current line starts.
    private var lineStart = 0
    /// The request line's LF, once seen.
    private var requestLineEnd = -1
    /// Header lines seen so far.
    private var headerLines = 0

    /// What the bytes so far amount to.
    enum Progress: Equatable {
        /// No end of head yet; keep the bytes and read more.
        case needMore
        /// The head is the first `length` bytes (up to and including the empty line).
        case complete(length: Int)
        /// The head can never become valid.
        case failed(RequestError)
    }

    /// Scans `head` (the bytes of this head from its first byte) from where the last call stopped.
    mutating func scan(_ head: Span<UInt8>, limits: RequestLimits) -> Progress {
        var index = scanned
        defer { scanned = index }
        while index < head.count {
            // Ordinary bytes (not LF, CR or a forbidden control) change nothing but the position, so they
            // are skipped in a tight loop up to the current part's size limit; past it one is an error.
            let limit = requestLineEnd < 0 ? limits.maxRequestLineBytes : requestLineEnd.addingReportingOverflow(limits.maxHeaderBytes).partialValue
            let stop = limit < 0 || limit >= head.count ? head.count : max(index, limit + 1)
            // Eight at a time (every byte that is not ordinary is a control, and the other way round).
            index = ByteSearch.firstControl(in: head, from: index, to: stop)
            guard index < head.count else { break }
            let byte = head[index]
            if Self.isOrdinary(byte) {
                return .failed(requestLineEnd < 0
                    ? RequestError(status: .uriTooLong, reason: "request line too long")
                    : RequestError(status: .requestHeaderFieldsTooLarge, reason: "header section too large"))
            }
            if byte == 0x0D {
                // RFC 9112 §2.2: a CR not followed by LF is invalid; answered at once rather than left
                // to wait for an LF that may never come. A CR at the end of what arrived waits for the next byte.
                guard index + 1 < head.count else { break }
                if head[index + 1] != 0x0A { return .failed(.badRequest("bare CR in request head")) }
            }
            if byte == 0x0A {
                if requestLineEnd < 0 {
                    // The line without its ending: a bare LF ending leaves no CR to have tripped the check below.
                    let content = index > 0 && head[index - 1] == 0x0D ? index - 1 : index
                    if content > limits.maxRequestLineBytes {
                        return .failed(RequestError(status: .uriTooLong, reason: "request line too long"))
                    }
                    requestLineEnd = index
                } else {
                    // The header section counts through the final LF: `maxHeaderBytes` is its whole size.
                    if index - requestLineEnd > limits.maxHeaderBytes {
                        return .failed(RequestError(status: .requestHeaderFieldsTooLarge, reason: "header section too large"))
                    }
                    let length = index - lineStart
                    if length == 0 || (length == 1 && head[lineStart] == 0x0D) {
                        index += 1
                        return .complete(length: index)
                    }
                    headerLines += 1
                    if headerLines > limits.maxHeaderCount {
                        return .failed(RequestError(status: .requestHeaderFieldsTooLarge, reason: "too many header fields"))
                    }
                }
                lineStart = index + 1
            } else if HTTPSyntax.isForbiddenInHead(byte) {
                // RFC 9112 §2.2 and RFC 9110 §5.5: NUL and other controls never appear in a valid head.
                // A TLS ClientHello (first byte 0x16) ends here too, at once, instead of timing out.
                return .failed(.badRequest(byte == 0x16 && index == 0
                    ? "TLS handshake sent to a plain HTTP port" : "control character in request head"))
            }
            if requestLineEnd < 0 {
                // +1 leaves room for the CR of the line ending.
                if index > limits.maxRequestLineBytes {
                    return .failed(RequestError(status: .uriTooLong, reason: "request line too long"))
                }
            } else if index - requestLineEnd > limits.maxHeaderBytes {
                return .failed(RequestError(status: .requestHeaderFieldsTooLarge, reason: "header section too large"))
            }
            index += 1
        }
        return .needMore
    }

    /// A byte that is neither a line ending nor forbidden: visible ASCII, SP, HTAB, or any byte >= 0x80.
    @inline(__always)
    private static func isOrdinary(_ byte: UInt8) -> Bool {
        (byte >= 0x20 && byte != 0x7F) || byte == 0x09
    }
}
