extension EventLoop {
    /// Offers a parsed request to the immediate handler, then to the async handler in its own task,
    /// whose response comes back via the mailbox. Bytes kept after this request wait until it is answered.
    func startHandler(_ connection: Connection, _ head: consuming RequestHead) {
        connection.state = .handling
        connection.inputAwaitsParsing = true
        disarm(connection)
        connection.isHeadRequest = head.request.method == .head
        connection.keepAlive = head.keepAlive && stopDeadline == nil
        connection.requestVersion = head.request.version
        // Moved out of the head, not copied: a copy retains every string and list in the request.
        var request = (consume head).request
        request.remoteAddress = connection.remoteAddress
        if let immediateHandler, let response = ResponseWriter.respondAtOnce(to: request, with: immediateHandler) {
            startResponse(connection, response)
            // The request ends here, so the kept list is the only one holding that memory again.
            spareRequestHeaders = request.headers
            return
        }
        let token = connection.token
        let mailbox = mailbox
        let handler = handler
        connection.handlerTask = Task {
            let response = await ResponseWriter.respond(to: request, with: handler)
            mailbox.post(LoopMailbox.Completion(token: token, response: response))
        }
    }

    /// Answers a request the server refused, then closes: the rest of the input cannot be trusted.
    /// `head` is the refused head's bytes when the caller has them (else what the connection kept).
    func respondWithError(_ connection: Connection, _ error: RequestError, head: UnsafeBufferPointer<UInt8>? = nil) {
        var response = ResponseWriter.makeErrorResponse(for: error)
        if let rejectionHandler {
            let rejection = makeRejection(connection, error, head: head, bodyBytes: response.body.count)
            response.headers.append(contentsOf: rejectionHandler(rejection))
        }
        connection.discardInput()
        connection.pendingHead = nil
        connection.chunkedBody = nil
        connection.scanner = HeadScanner()
        connection.keepAlive = false
        connection.isHeadRequest = false
        startResponse(connection, response)
    }

    /// What is known of a refused request: the parsed head when its body was being read, else the
    /// request line and Origin as far as the bytes go; the time since its first byte, from the header deadline.
    private func makeRejection(_ connection: Connection, _ error: RequestError, head: UnsafeBufferPointer<UInt8>?, bodyBytes: Int) -> HTTPRejection {
        let headerMilliseconds = timerDurations[TimerKind.header.rawValue]
        var waited: Int64 = 0
        if error.status == .requestTimeout {
            waited = headerMilliseconds
        } else if let deadline = deadlines.deadline(of: connection.socket.fd, kind: .header) {
            waited = max(0, now &- (deadline &- headerMilliseconds))
        }
        var rejection = HTTPRejection(
            status: error.status, reason: error.reason, remoteAddress: connection.remoteAddress,
            durationMilliseconds: Double(waited), bodyBytes: bodyBytes)
        if let request = connection.pendingHead?.request {
            rejection.method = request.method.rawValue
            rejection.target = request.target
            rejection.origin = request.headers["Origin"]
        } else if let head {
            rejection.read(head: head)
        } else if connection.hasBufferedInput {
            let start = connection.inputStart
            connection.input.withUnsafeBufferPointer { rejection.read(head: UnsafeBufferPointer(rebasing: $0[start...])) }
        }
        return rejection
    }

    /// Serializes the response into the shared head buffer and writes head and body in one writev;
    /// only what the socket did not take is copied into the connection, to go out on EPOLLOUT.
    func startResponse(_ connection: Connection, _ response: HTTPResponse) {
        var keepAlive = connection.keepAlive && stopDeadline == nil
        var stream: (length: Int?, producer: @Sendable (HTTPBodyWriter) async throws -> Void)?
        if case .stream(let length, let producer) = response.body, !connection.isHeadRequest,
           response.status.code != 204, response.status.code != 304 {
            stream = (length, producer)
            // HTTP/1.0 has no chunked coding: a body of unknown length ends with the connection.
            if length == nil && connection.requestVersion == .http1_0 { keepAlive = false }
        }
        let framing = ResponseWriter.Framing(
            isHeadRequest: connection.isHeadRequest, keepAlive: keepAlive,
            requestVersion: connection.requestVersion, date: date.current(), serverField: serverField)
        var headCount = ResponseWriter.writeHead(response, framing: framing, into: headBuffer)
        if headCount > headBuffer.count {
            headBuffer.deallocate()
            headBuffer = .allocate(capacity: headCount)
            headCount = ResponseWriter.writeHead(response, framing: framing, into: headBuffer)
        }
        let head = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: headBuffer[..<min(headCount, headBuffer.count)]))
        let body = ResponseWriter.bodyBytes(response, framing: framing)
        connection.closeAfterWrite = !keepAlive
        connection.state = .writing
        if let stream { startStreaming(connection, length: stream.length, producer: stream.producer) }
        if case .file(let region) = response.body, !connection.isHeadRequest, region.length > 0,
           response.status.code != 204, response.status.code != 304 {
            connection.outputFile = region
            connection.outputFileSent = 0
        }
        var written = 0
        switch connection.socket.write(head: head, body: body, from: 0) {
        case .done(let count): written = count
        case .wouldBlock: break
        case .failed:
            close(connection)
            return
        }
        if written >= head.count + body.count, connection.outputFile == nil {
            if let pump = connection.bodyPump {
                streamDrained(connection, pump)
            } else {
                finishWrite(connection)
            }
            return
        }
        connection.outputHead = Array(head[min(written, head.count)...])
        connection.outputBody = body
        connection.outputOffset = max(0, written - head.count)
        // A file body goes on at once in `flush` (the serve loop's next step): the socket has room.
        if written < head.count + body.count { rearm(connection, .write) }
    }

    /// Writes pending output; true once all of it is written. On EAGAIN it waits for EPOLLOUT, the
    /// write deadline restarting on progress.
    func flush(_ connection: Connection) -> Bool {
        let total = connection.outputHead.count + connection.outputBody.count
        var progressed = false
        while connection.outputOffset < total {
            switch connection.socket.write(head: connection.outputHead, body: connection.outputBody, from: connection.outputOffset) {
            case .done(let count) where count > 0:
                connection.outputOffset += count
                progressed = true
            case .done, .wouldBlock:
                if progressed { rearm(connection, .write) }
                return false
            case .failed:
                close(connection)
                return false
            }
        }
        if let region = connection.outputFile {
            guard sendFile(connection, region, progressed: progressed) else { return false }
        }
        if let pump = connection.bodyPump {
            streamDrained(connection, pump)
            return true
        }
        finishWrite(connection)
        return true
    }

    /// Sends the rest of a file body; true once all of it is sent. A file that ends early breaks the
    /// promised Content-Length, so the connection is closed.
    private func sendFile(_ connection: Connection, _ region: HTTPFileRegion, progressed: Bool) -> Bool {
        var progressed = progressed
        while connection.outputFileSent < region.length {
            let remaining = region.length - connection.outputFileSent
            switch connection.socket.sendFile(region.file, offset: region.offset + connection.outputFileSent, count: min(remaining, Self.sendFilePiece)) {
            case .done(let count) where count > 0:
                connection.outputFileSent += count
                progressed = true
            case .done:
                close(connection)
                return false
            case .wouldBlock:
                if progressed { rearm(connection, .write) }
                return false
            case .failed:
                close(connection)
                return false
            }
        }
        connection.outputFile = nil
        connection.outputFileSent = 0
        return true
    }

    /// The most one sendfile call is asked for, so one large file does not hold the loop thread.
    static let sendFilePiece = 1 << 20

    /// After a response: half-close, or become free for the next request (which `serve` takes up).
    private func finishWrite(_ connection: Connection) {
        connection.outputFile = nil
        connection.outputHead = []
        connection.outputBody = []
        connection.outputOffset = 0
        if connection.closeAfterWrite {
            linger(connection)
            return
        }
        connection.state = .awaitingHead
        disarm(connection)
    }

    /// Half-closes after a closing response; `serve` then drains input until the peer closes, so unread
    /// request bytes do not turn our close into a reset that could destroy the response before it is read.
    func linger(_ connection: Connection) {
        connection.socket.shutdownWrite()
        connection.state = .lingering
        connection.discardInput()
        connection.chunkedBody = nil
        connection.pendingHead = nil
        if connection.isServing {
            connection.isServing = false
            serving -= 1
            tally.add(-1)
        }
        if totalCount - serving > EventLoop.maxLingering {
            close(connection)
            return
        }
        rearm(connection, .linger)
    }

    /// Discards input on a lingering connection; closes at end of stream. Bounded per event.
    func drainLingering(_ connection: Connection) {
        for _ in 0..<16 {
            switch connection.socket.read(into: UnsafeMutableRawBufferPointer(readBuffer)) {
            case .done(0), .failed:
                close(connection)
                return
            case .wouldBlock:
                connection.readable = false
                return
            case .done:
                continue
            }
        }
    }

    /// Closes the connection, cancelling a running handler.
    func close(_ connection: Connection) {
        guard isOpen(connection) else { return }
        disarm(connection)
        connections[Int(connection.socket.fd)] = nil
        totalCount -= 1
        if connection.isServing {
            connection.isServing = false
            serving -= 1
            tally.add(-1)
        }
        connection.handlerTask?.cancel()
        connection.handlerTask = nil
        // A producer waiting on this connection learns the client is gone (its write throws).
        connection.bodyPump?.resumeWaiter(false)
        connection.bodyPump = nil
        connection.outputFile = nil
        connection.socket.close()
    }
}
