extension HTTPResponseReader {
    /// Reads the body as `framing` says, failing as soon as it would exceed `limit` bytes.
    mutating func readBody(_ framing: HTTPBodyFraming, limit: Int) throws(HTTPClientError) -> [UInt8] {
        var body: [UInt8] = []
        if case .contentLength(let length) = framing {
            // Checked before reading: a claimed length is never allocated beyond the cap.
            guard length <= limit else { throw .bodyTooLarge(limit: limit) }
            body.reserveCapacity(min(length, 1 << 20))
        }
        try streamBody(framing, limit: limit) { (piece: ArraySlice<UInt8>) throws(HTTPClientError) in
            body.append(contentsOf: piece)
        }
        return body
    }

    /// Reads the body as `framing` says and hands each received piece to `emit` as it arrives, never
    /// holding more than one read's worth. A transfer that ends early is `.truncatedBody`; one that
    /// declares or sends more than `limit` bytes is `.bodyTooLarge`, before the excess is read.
    mutating func streamBody(
        _ framing: HTTPBodyFraming, limit: Int = .max, emit: (ArraySlice<UInt8>) throws(HTTPClientError) -> Void
    ) throws(HTTPClientError) {
        switch framing {
        case .none:
            return
        case .contentLength(let length):
            guard length <= limit else { throw .bodyTooLarge(limit: limit) }
            try streamExactly(length, emit: emit)
        case .chunked:
            try streamChunked(limit: limit, emit: emit)
        case .untilClose:
            var total = 0
            while true {
                if buffered > 0 {
                    total = total &+ buffered
                    guard total >= 0, total <= limit else { throw .bodyTooLarge(limit: limit) }
                    try emit(take(upTo: buffered))
                }
                compact()
                guard try fill() > 0 else { return }
            }
        }
    }

    /// Emits exactly `count` bytes; the stream ending first is a truncated body.
    private mutating func streamExactly(_ count: Int, emit: (ArraySlice<UInt8>) throws(HTTPClientError) -> Void) throws(HTTPClientError) {
        var needed = count
        while needed > 0 {
            if buffered == 0 {
                compact()
                guard try fill() > 0 else { throw .truncatedBody }
            }
            let slice = take(upTo: needed)
            try emit(slice)
            needed -= slice.count
        }
    }

    /// RFC 9112 §7.1: chunk-size [ext] CRLF data CRLF ... 0 CRLF trailers CRLF.
    private mutating func streamChunked(limit: Int, emit: (ArraySlice<UInt8>) throws(HTTPClientError) -> Void) throws(HTTPClientError) {
        var received = 0
        while true {
            guard let sizeLine = try readBodyLine() else { throw .truncatedBody }
            let size = try HTTPResponseSyntax.parseChunkSize(sizeLine)
            if size == 0 { break }
            let (total, overflow) = received.addingReportingOverflow(size)
            guard !overflow, total <= limit else { throw .bodyTooLarge(limit: limit) }
            received = total
            try streamExactly(size, emit: emit)
            guard let end = try readBodyLine() else { throw .truncatedBody }
            guard end.isEmpty else { throw .malformedResponse("chunk data not followed by CRLF") }
        }
        // Trailer fields are read and dropped (RFC 9112 §7.1.2 lets a recipient discard them).
        var trailerBudget = HTTPResponseReader.maxHeadBytes
        while true {
            guard let line = try readBodyLine() else { throw .truncatedBody }
            if line.isEmpty { return }
            trailerBudget -= line.count
            guard trailerBudget > 0 else { throw .malformedResponse("trailers too large") }
        }
    }

    /// A chunk-size or trailer line, at most 8 KiB; nil when the stream ended before it completed.
    private mutating func readBodyLine() throws(HTTPClientError) -> [UInt8]? {
        var budget = 8_192
        return try readLine(budget: &budget, cutOff: .truncatedBody)
    }
}
