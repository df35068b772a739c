import HTTPWire
extension EventLoop {
    /// Reads once into the shared buffer and feeds the parser.
    func readOnce(_ connection: Connection) {
        switch connection.socket.read(into: UnsafeMutableRawBufferPointer(readBuffer)) {
        case .wouldBlock:
            connection.readable = false
        case .failed:
            close(connection)
        case .done(0):
            // End of stream. Between requests nothing is owed. Within a head or a body the request can
            // never complete: a client that only half-closed still reads why before the connection ends.
            switch connection.state {
            case .awaitingHead where connection.hasBufferedInput:
                respondWithError(connection, .badRequest("request head incomplete"))
            case .readingBody:
                respondWithError(connection, .badRequest("request body incomplete"))
            case .awaitingHead, .handling, .writing, .streaming, .lingering:
                close(connection)
            }
        case .done(let count):
            // A short read drained the socket: the next arrival raises a new edge. The end of stream
            // raises none if it came with the data, so after EPOLLRDHUP read on until it shows.
            if count < readBuffer.count, !connection.peerShutdown { connection.readable = false }
            consume(connection, UnsafeBufferPointer(rebasing: readBuffer[0..<min(count, readBuffer.count)]))
        }
    }

    /// Arms the deadline for what the connection waits on: idle between requests, header within one.
    func armWaitingTimer(_ connection: Connection) {
        switch connection.state {
        case .awaitingHead: arm(connection, connection.hasBufferedInput ? .header : .idle)
        case .readingBody: arm(connection, .header)
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
        let used = input.withUnsafeBufferPointer { advance(connection, UnsafeBufferPointer(rebasing: $0[start...])) }
        keep(input, from: start + used, for: connection)
    }

    /// Feeds freshly read bytes; only what is left unconsumed is copied out of the shared buffer.
    private func consume(_ connection: Connection, _ bytes: UnsafeBufferPointer<UInt8>) {
        if !connection.hasBufferedInput {
            let used = advance(connection, bytes)
            if used < bytes.count, mayKeepInput(connection) {
                (connection.input, connection.inputStart) = (Array(bytes[used...]), 0)
            }
        } else {
            var input = connection.input
            let start = connection.inputStart
            connection.discardInput()
            // The consumed front goes now, once per read, before the new bytes join the rest.
            input.removeFirst(min(start, input.count))
            input.append(contentsOf: bytes)
            let used = input.withUnsafeBufferPointer { advance(connection, $0) }
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
        guard isOpen(connection) else { return false }
        switch connection.state {
        case .awaitingHead, .readingBody, .handling, .writing, .streaming: return true
        case .lingering: return false
        }
    }

    /// Runs the request state machine over `bytes` and returns how many it consumed. Stops after one
    /// complete request: requests on a connection are handled one at a time, in order.
    private func advance(_ connection: Connection, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
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
                let head = UnsafeBufferPointer(rebasing: bytes[offset...])
                switch connection.scanner.scan(head, limits: limits) {
                case .needMore:
                    return offset
                case .failed(let error):
                    respondWithError(connection, error, head: head)
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
                        requestHead = try RequestParser.parse(UnsafeBufferPointer(rebasing: head[0..<length]), limits: limits, reusing: consume spare)
                    } catch {
                        respondWithError(connection, error, head: UnsafeBufferPointer(rebasing: head[0..<length]))
                        return bytes.count
                    }
                    if requestHead.contentLength > 0 || requestHead.chunked {
                        // The body must arrive within one more header timeout (nginx bounds a discarded
                        // body by time too), and its size is held to `maxBodyBytes`.
                        connection.bodyRemaining = requestHead.contentLength
                        connection.chunkedBody = requestHead.chunked ? ChunkedBodyDiscarder() : nil
                        connection.pendingHead = consume requestHead
                        connection.state = .readingBody
                        rearm(connection, .header)
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
                    switch chunked.discard(UnsafeBufferPointer(rebasing: bytes[offset...]), limits: limits) {
                    case .needMore:
                        connection.chunkedBody = chunked
                        return bytes.count
                    case .complete(let used):
                        offset += used
                        connection.chunkedBody = nil
                    case .failed(let error):
                        respondWithError(connection, error)
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
}
