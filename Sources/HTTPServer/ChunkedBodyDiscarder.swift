/// Reads a chunked request body (RFC 9112 §7.1) and throws its data away, keeping only its place in
/// the framing, so the next request on the connection starts right after the trailer section. Holds a
/// few integers whatever the body's size. Strict, so the framing cannot be read two ways: hexadecimal
/// sizes checked for overflow, every line ended by CRLF, no control bytes in extensions or trailers.
struct ChunkedBodyDiscarder: Equatable {
    /// What the bytes so far amount to.
    enum Progress: Equatable {
        /// The body goes on; every byte given was consumed.
        case needMore
        /// The body ended after the first `used` bytes given (the rest belongs to the next request).
        case complete(used: Int)
        /// The body can never be valid, or it is larger than the limit.
        case failed(RequestError)
    }

    private enum Phase {
        case size, sizeBWS, extensions, sizeLF, data, dataCR, dataLF, trailerLineStart, trailerLine, trailerLF, endLF
    }

    /// The longest chunk-size line (size and extensions) accepted; 400 beyond.
    static let maxSizeLineBytes = 4096

    private var phase = Phase.size
    /// The size being read, then the data bytes of the chunk still to come.
    private var remaining = 0
    /// Data bytes of the chunks so far, held to `RequestLimits.maxBodyBytes`.
    private var dataBytes = 0
    /// Bytes of the current chunk-size line, or of the trailer section.
    private var lineBytes = 0

    /// Consumes `bytes`, the next bytes of the body from where the last call stopped.
    mutating func discard(_ bytes: Span<UInt8>, limits: RequestLimits) -> Progress {
        var index = 0
        while index < bytes.count {
            if phase == .data {
                // The data itself is skipped in one step, however much of it arrived.
                let take = min(remaining, bytes.count - index)
                index += take
                remaining -= take
                if remaining == 0 { phase = .dataCR }
                continue
            }
            let byte = bytes[index]
            index += 1
            switch phase {
            case .size:
                lineBytes += 1
                if lineBytes > Self.maxSizeLineBytes { return .failed(.badRequest("chunk size line too long")) }
                if let digit = Self.hexValue(byte) {
                    let (times, overflowA) = remaining.multipliedReportingOverflow(by: 16)
                    let (sum, overflowB) = times.addingReportingOverflow(digit)
                    if overflowA || overflowB || sum > limits.maxBodyBytes - dataBytes {
                        return .failed(RequestError(status: .payloadTooLarge, reason: "request body too large"))
                    }
                    remaining = sum
                } else if lineBytes == 1 {
                    return .failed(.badRequest("invalid chunk size"))
                } else if byte == 0x0D {
                    phase = .sizeLF
                } else if byte == 0x3B {
                    // RFC 9112 §7.1.1: `chunk-size *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )`.
                    phase = .extensions
                } else if byte == 0x20 || byte == 0x09 {
                    phase = .sizeBWS
                } else {
                    return .failed(.badRequest("invalid chunk size"))
                }
            case .sizeBWS:
                // Whitespace after the size leads only to an extension (or the line's end): "5 6" is no
                // size 5, whatever another parser on the path might read it as.
                lineBytes += 1
                if lineBytes > Self.maxSizeLineBytes { return .failed(.badRequest("chunk size line too long")) }
                if byte == 0x3B {
                    phase = .extensions
                } else if byte == 0x0D {
                    phase = .sizeLF
                } else if byte != 0x20, byte != 0x09 {
                    return .failed(.badRequest("invalid chunk size"))
                }
            case .extensions:
                lineBytes += 1
                if lineBytes > Self.maxSizeLineBytes { return .failed(.badRequest("chunk size line too long")) }
                if byte == 0x0D {
                    phase = .sizeLF
                } else if Self.isControl(byte) {
                    return .failed(.badRequest("control character in chunk extension"))
                }
            case .sizeLF:
                guard byte == 0x0A else { return .failed(.badRequest("chunk size line not ended by CRLF")) }
                lineBytes = 0
                if remaining == 0 {
                    phase = .trailerLineStart
                } else {
                    dataBytes += remaining
                    phase = .data
                }
            case .dataCR:
                guard byte == 0x0D else { return .failed(.badRequest("chunk data not followed by CRLF")) }
                phase = .dataLF
            case .dataLF:
                guard byte == 0x0A else { return .failed(.badRequest("chunk data not followed by CRLF")) }
                phase = .size
            case .trailerLineStart, .trailerLine:
                lineBytes += 1
                if lineBytes > limits.maxHeaderBytes {
                    return .failed(RequestError(status: .requestHeaderFieldsTooLarge, reason: "trailer section too large"))
                }
                if byte == 0x0D {
                    phase = phase == .trailerLineStart ? .endLF : .trailerLF
                } else if Self.isControl(byte) || (phase == .trailerLineStart && (byte == 0x20 || byte == 0x09)) {
                    return .failed(.badRequest("malformed trailer field"))
                } else {
                    phase = .trailerLine
                }
            case .trailerLF:
                lineBytes += 1
                guard byte == 0x0A else { return .failed(.badRequest("trailer field not ended by CRLF")) }
                phase = .trailerLineStart
            case .endLF:
                guard byte == 0x0A else { return .failed(.badRequest("trailer section not ended by CRLF")) }
                return .complete(used: index)
            case .data:
                break
            }
        }
        return .needMore
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte &- 0x30)
        case 0x41...0x46: Int(byte &- 0x41 &+ 10)
        case 0x61...0x66: Int(byte &- 0x61 &+ 10)
        default: nil
        }
    }

    /// A control byte other than HTAB (CR and LF included: a line ends only in CRLF, handled apart).
    @inline(__always)
    private static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }
}
