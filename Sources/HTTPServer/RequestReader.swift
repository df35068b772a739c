import HTTPWire

/// Reads requests off one loop's connections: one shared read buffer, each connection's kept input
/// (a partial head, pipelined requests), head scanning and parsing within the limits, bodies read past;
/// each complete request goes to the dispatcher, each malformed one to the sender's error response.
final class RequestReader {
    let limits: RequestLimits
    let connections: ConnectionTable
    let timers: LoopTimers
    let sender: ResponseSender
    let dispatcher: RequestDispatcher
    /// The one read buffer every connection reads through; only the socket layer's read(2) reaches its memory.
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// The header list of the last request answered at once, kept for the next request's fields: its
    /// memory is used again instead of allocated and freed per request. (A request handed to an async
    /// handler takes its list along, and the next one starts a new list.)
    private var spareRequestHeaders = HTTPHeaders()

    init(limits: RequestLimits, connections: ConnectionTable, timers: LoopTimers, sender: ResponseSender, dispatcher: RequestDispatcher) {
        self.limits = limits
        self.connections = connections
        self.timers = timers
        self.sender = sender
        self.dispatcher = dispatcher
    }

    /// Frees the read buffer; the loop calls it once, as it releases everything else.
    func deallocate() {
        readBuffer = []
    }

    /// Reads once into the shared buffer and feeds the parser.
    func readOnce(_ connection: Connection) {
        switch connection.socket.read(into: &readBuffer) {
        case .wouldBlock:
            connection.readable = false
        case .failed:
            connections.close(connection)
        case .done(0):
            // End of stream. Between requests nothing is owed. Within a head or a body the request can
            // never complete: a client that only half-closed still reads why before the connection ends.
            switch connection.state {
            case .awaitingHead where connection.hasBufferedInput:
                sender.respondWithError(connection, .badRequest("request head incomplete"))
            case .readingBody:
                sender.respondWithError(connection, .badRequest("request body incomplete"))
            case .awaitingHead, .handling, .writing, .streaming, .lingering:
                connections.close(connection)
            }
        case .done(let count):
            // A short read drained the socket: the next arrival raises a new edge. The end of stream
            // raises none if it came with the data, so after EPOLLRDHUP read on until it shows.
            if count < readBuffer.count, !connection.peerShutdown { connection.readable = false }
            let buffer = readBuffer
            consume(connection, buffer.span.extracting(0..<min(count, buffer.count)))
        }
    }

    /// Arms the deadline for what the connection waits on: idle between requests, header within one.
    func armWaitingTimer(_ connection: Connection) {
        switch connection.state {
        case .awaitingHead: timers.arm(connection, connection.hasBufferedInput ? .header : .idle)
        case .readingBody: timers.arm(connection, .header)
        case .handling, .writing, .streaming, .lingering: break
        }
    }

    /// Parses what was kept from earlier reads (pipelined requests) now that the connection is free.
    func processBuffered(_ connection: Connection) {
        connection.inputAwaitsParsing = false
        // Usually nothing was kept: the request came alone, the way players send them.
        guard connection.hasBufferedInput else { return }
        let (input, start) = (connection.input, connection.inputStart)
        connection.discardInput()
        let used = advance(connection, input.span.extracting(start...))
        keep(input, from: start + used, for: connection)
    }

    /// Feeds freshly read bytes; only what is left unconsumed is copied out of the shared buffer.
    private func consume(_ connection: Connection, _ bytes: Span<UInt8>) {
        if !connection.hasBufferedInput {
            let used = advance(connection, bytes)
            if used < bytes.count, mayKeepInput(connection) {
                (connection.input, connection.inputStart) = ([UInt8](copying: bytes.extracting(used...)), 0)
            }
        } else {
            var input = connection.input
            let start = connection.inputStart
            connection.discardInput()
            // The consumed front goes now, once per read, before the new bytes join the rest.
            input.removeFirst(min(start, input.count))
            input.append(copying: bytes)
            let used = advance(connection, input.span)
            keep(input, from: used, for: connection)
        }
    }

    /// Keeps `input` from `start` on for the connection's next step: the same buffer, not a copy.
    private func keep(_ input: [UInt8], from start: Int, for connection: Connection) {
        guard start < input.count, mayKeepInput(connection) else { return }
        (connection.input, connection.inputStart) = (input, start)
    }

    /// Whether unparsed bytes are worth keeping: not once the connection is closed or lingering.
    private func mayKeepInput(_ connection: Connection) -> Bool {
        guard connections.isOpen(connection) else { return false }
        switch connection.state {
        case .awaitingHead, .readingBody, .handling, .writing, .streaming: return true
        case .lingering: return false
        }
    }

    /// Runs the request state machine over `bytes` and returns how many it consumed. Stops after one
    /// complete request: requests on a connection are handled one at a time, in order.
    private func advance(_ connection: Connection, _ bytes: Span<UInt8>) -> Int {
        var offset = 0
        while true {
            switch connection.state {
            case .awaitingHead:
                if connection.scanner.scanned == 0 {
                    // RFC 9112 §2.2: a server should ignore at least one empty line before a request-line.
                    while offset < bytes.count {
                        if bytes[offset] == 0x0A {
                            offset += 1
                        } else if bytes[offset] == 0x0D, offset + 1 < bytes.count, bytes[offset + 1] == 0x0A {
                            offset += 2
                        } else {
                            break
                        }
                    }
                }
                guard offset < bytes.count else { return offset }
                let head = bytes.extracting(offset...)
                switch connection.scanner.scan(head, limits: limits) {
                case .needMore:
                    return offset
                case .failed(let error):
                    sender.respondWithError(connection, error, head: [UInt8](copying: head))
                    return bytes.count
                case .complete(let length):
                    let spare = spareRequestHeaders
                    spareRequestHeaders = HTTPHeaders()
                    offset += length
                    connection.scanner = HeadScanner()
                    // Returned, not wrapped in a Result: the head then moves into the handler's request
                    // (a Result payload was copied, retaining every string in the request once more).
                    let requestHead: RequestHead
                    do {
                        requestHead = try RequestParser.parse(head.extracting(0..<length), limits: limits, reusing: consume spare)
                    } catch {
                        sender.respondWithError(connection, error, head: [UInt8](copying: head.extracting(0..<length)))
                        return bytes.count
                    }
                    if requestHead.contentLength > 0 || requestHead.chunked {
                        // The body must arrive within one more header timeout (nginx bounds a discarded
                        // body by time too), and its size is held to `maxBodyBytes`.
                        connection.bodyRemaining = requestHead.contentLength
                        connection.chunkedBody = requestHead.chunked ? ChunkedBodyDiscarder() : nil
                        connection.pendingHead = consume requestHead
                        connection.state = .readingBody
                        timers.rearm(connection, .header)
                    } else {
                        startHandler(connection, consume requestHead)
                        return offset
                    }
                }
            case .readingBody:
                // RFC 9110 §9.3.1: content in a GET, HEAD or OPTIONS request has no defined meaning and no
                // route reads one, so it is discarded as it arrives (as nginx discards a body it does not
                // use): the connection holds none of it, whatever its size.
                if var chunked = connection.chunkedBody {
                    switch chunked.discard(bytes.extracting(offset...), limits: limits) {
                    case .needMore:
                        connection.chunkedBody = chunked
                        return bytes.count
                    case .complete(let used):
                        offset += used
                        connection.chunkedBody = nil
                    case .failed(let error):
                        sender.respondWithError(connection, error)
                        return bytes.count
                    }
                } else {
                    let take = min(connection.bodyRemaining, bytes.count - offset)
                    offset += take
                    connection.bodyRemaining -= take
                    guard connection.bodyRemaining == 0 else { return offset }
                }
                guard let head = connection.pendingHead else { return offset }
                connection.pendingHead = nil
                startHandler(connection, head)
                return offset
            case .handling, .writing, .streaming, .lingering:
                return offset
            }
        }
    }

    /// Discards input on a lingering connection; closes at end of stream. Bounded per event.
    func drainLingering(_ connection: Connection) {
        for _ in 0..<16 {
            switch connection.socket.read(into: &readBuffer) {
            case .done(0), .failed:
                connections.close(connection)
                return
            case .wouldBlock:
                connection.readable = false
                return
            case .done:
                continue
            }
        }
    }

    /// Hands a complete request to the dispatcher; the header list of a request answered at once comes
    /// back for the next request's fields.
    private func startHandler(_ connection: Connection, _ head: consuming RequestHead) {
        if let headers = dispatcher.start(connection, head) { spareRequestHeaders = headers }
    }
}
