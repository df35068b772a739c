extension HTTPResponseReader {
    /// Reads the body as `framing` says, failing as soon as it would exceed `limit` bytes.
    mutating func readBody(_ framing: HTTPBodyFraming, limit: Int) throws(HTTPClientError) -> [UInt8] {
        switch framing {
        case .none:
            return []
        case .contentLength(let length):
            // Checked before reading: a claimed length is never allocated beyond the cap.
            guard length <= limit else { throw .bodyTooLarge(limit: limit) }
            var body: [UInt8] = []
            body.reserveCapacity(min(length, 1 << 20))
            try readExactly(length, into: &body)
            return body
        case .chunked:
            return try readChunked(limit: limit)
        case .untilClose:
            var body = Array(take(upTo: buffered))
            guard body.count <= limit else { throw .bodyTooLarge(limit: limit) }
            compact()
            while try fill() > 0 {
                body.append(contentsOf: take(upTo: buffered))
                compact()
                guard body.count <= limit else { throw .bodyTooLarge(limit: limit) }
            }
            return body
        }
    }

    /// Appends exactly `count` bytes; the stream ending first is a truncated body.
    private mutating func readExactly(_ count: Int, into body: inout [UInt8]) throws(HTTPClientError) {
        var needed = count
        while needed > 0 {
            if buffered == 0 {
                compact()
                guard try fill() > 0 else { throw .truncatedBody }
            }
            let slice = take(upTo: needed)
            body.append(contentsOf: slice)
            needed -= slice.count
        }
    }

    /// RFC 9112 §7.1: chunk-size [ext] CRLF data CRLF ... 0 CRLF trailers CRLF.
    private mutating func readChunked(limit: Int) throws(HTTPClientError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            guard let sizeLine = try readBodyLine() else { throw .truncatedBody }
            let size = try HTTPResponseSyntax.parseChunkSize(sizeLine)
            if size == 0 { break }
            let (total, overflow) = body.count.addingReportingOverflow(size)
            guard !overflow, total <= limit else { throw .bodyTooLarge(limit: limit) }
            try readExactly(size, into: &body)
            guard let end = try readBodyLine() else { throw .truncatedBody }
            guard end.isEmpty else { throw .malformedResponse("chunk data not followed by CRLF") }
        }
        // Trailer fields are read and dropped (RFC 9112 §7.1.2 lets a recipient discard them).
        var trailerBudget = HTTPResponseReader.maxHeadBytes
        while true {
            guard let line = try readBodyLine() else { throw .truncatedBody }
            if line.isEmpty { return body }
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
