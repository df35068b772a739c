import HTTPWire
/// Reads one HTTP/1.1 response from a byte source: the head (tolerant of what real origins send),
/// then the body as its framing says (RFC 9112 §6.3). Never trusts a length it has not received.
struct HTTPResponseReader<Source: HTTPByteSource> {
    /// Bounds on the head: real origins stay far below; beyond this is abuse or garbage.
    static var maxHeadBytes: Int { 65_536 }
    static var maxHeaderFields: Int { 256 }
    static var readSize: Int { 65_536 }

    let source: Source
    private(set) var buffer: [UInt8] = []
    private(set) var position = 0
    private(set) var reachedEnd = false
    /// Whether any byte of a response has arrived: a request on a reused connection that fails before
    /// one did may be retried (RFC 9112 §9.3.1).
    private(set) var receivedAny = false

    init(source: Source) {
        self.source = source
    }

    /// Reads heads until a final (non-1xx) one; RFC 9110 §15.2: interim responses precede the final one.
    mutating func readHead() throws(HTTPClientError) -> HTTPResponseHead {
        var budget = Self.maxHeadBytes
        while true {
            let head = try readOneHead(budget: &budget)
            if head.status == 101 { throw .malformedResponse("unexpected 101 Switching Protocols") }
            if head.status >= 200 { return head }
        }
    }

    private mutating func readOneHead(budget: inout Int) throws(HTTPClientError) -> HTTPResponseHead {
        let startedEmpty = position >= buffer.count && position == 0
        guard let statusLine = try readLine(budget: &budget) else {
            if startedEmpty { throw .connectionLost("closed before a response") }
            throw .malformedResponse("closed inside the head")
        }
        var head = try HTTPResponseSyntax.parseStatusLine(statusLine)
        var fields: [(String, String)] = []
        while true {
            guard let line = try readLine(budget: &budget) else { throw .malformedResponse("closed inside the head") }
            if line.isEmpty { break }
            if let first = line.first, first == 0x20 || first == 0x09 {
                // RFC 9112 §5.2: a user agent replaces obs-fold with SP before interpreting the value.
                guard let last = fields.popLast() else { throw .malformedResponse("continuation line before any field") }
                let more = try HTTPResponseSyntax.fieldValue(line[...])
                fields.append((last.0, more.isEmpty ? last.1 : last.1 + " " + more))
                continue
            }
            guard fields.count < Self.maxHeaderFields else { throw .malformedResponse("too many header fields") }
            fields.append(try HTTPResponseSyntax.parseField(line))
        }
        head.headers = HTTPHeaders(fields)
        return head
    }

    /// The next line without its LF (and CR), or nil at end of stream before any byte of it.
    mutating func readLine(
        budget: inout Int,
        cutOff: HTTPClientError = .malformedResponse("closed inside the head")
    ) throws(HTTPClientError) -> [UInt8]? {
        var scanFrom = position
        while true {
            if let newline = buffer[scanFrom...].firstIndex(of: 0x0A) {
                let length = newline - position + 1
                guard length <= budget else { throw .malformedResponse("line too long") }
                budget -= length
                var end = newline
                if end > position && buffer[end - 1] == 0x0D { end -= 1 }
                let line = Array(buffer[position..<end])
                position = newline + 1
                return line
            }
            guard buffer.count - position <= budget else { throw .malformedResponse("line too long") }
            compact()
            scanFrom = buffer.count
            if try fill() == 0 {
                if position == buffer.count { return nil }
                throw cutOff
            }
        }
    }

    /// Reads more bytes into the buffer; 0 at end of stream.
    @discardableResult
    mutating func fill() throws(HTTPClientError) -> Int {
        if reachedEnd { return 0 }
        let count = try source.receive(into: &buffer, limit: Self.readSize)
        if count == 0 { reachedEnd = true } else { receivedAny = true }
        return count
    }

    /// Drops consumed bytes so the buffer does not grow with the body.
    mutating func compact() {
        guard position > 0 else { return }
        buffer.removeFirst(position)
        position = 0
    }

    /// Takes up to `count` buffered bytes.
    mutating func take(upTo count: Int) -> ArraySlice<UInt8> {
        let end = min(buffer.count, position + count)
        let slice = buffer[position..<end]
        position = end
        return slice
    }

    /// Bytes received but not consumed.
    var buffered: Int { buffer.count - position }
}
