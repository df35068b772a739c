import HTTPWire

/// Writes responses on one loop's connections: each head serialized into one shared buffer and written
/// with its body in one writev, only what a short write left kept on the connection, file bodies by
/// sendfile, streamed bodies piece by piece (`+Streaming`), and the linger after a closing response.
final class ResponseSender {
    /// The most one sendfile call is asked for, so one large file does not hold the loop thread.
    static let sendFilePiece = 1 << 20

    /// The Server field line every response carries, sanitized once.
    let serverField: [UInt8]
    /// Told of every request the server refuses itself; adds fields to the error response.
    let rejectionHandler: HTTPRejectionHandler?
    /// Where a streamed body's pieces come back to this thread.
    let mailbox: LoopMailbox
    let connections: ConnectionTable
    let timers: LoopTimers
    /// The one buffer response heads are written into; a connection copies out only what a short
    /// write left unsent. Grown when a head does not fit. (Unchecked exclusivity: see ConnectionTable.slots.)
    @exclusivity(unchecked) private var headBuffer = [UInt8](repeating: 0, count: 4096)
    /// The Date field value, formatted once a second.
    @exclusivity(unchecked) private var date = HTTPDate()

    init(configuration: HTTPServerConfiguration, rejectionHandler: HTTPRejectionHandler?, mailbox: LoopMailbox,
         connections: ConnectionTable, timers: LoopTimers) {
        serverField = ResponseWriter.serverField(configuration.serverName)
        self.rejectionHandler = rejectionHandler
        self.mailbox = mailbox
        self.connections = connections
        self.timers = timers
    }

    /// Frees the head buffer; the loop calls it once, as it releases everything else.
    func deallocate() {
        headBuffer = []
    }

    /// Answers a request the server refused, then closes: the rest of the input cannot be trusted.
    /// `head` is the refused head's bytes when the caller has them (else what the connection kept).
    func respondWithError(_ connection: Connection, _ error: RequestError, head: [UInt8]? = nil) {
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
    private func makeRejection(_ connection: Connection, _ error: RequestError, head: [UInt8]?, bodyBytes: Int) -> HTTPRejection {
        var waited: Int64 = 0
        if error.status == .requestTimeout {
            waited = timers.durations[TimerKind.header.rawValue]
        } else if let wait = timers.headerWait(connection) {
            waited = wait
        }
        var rejection = HTTPRejection(
            status: error.status, reason: error.reason, remoteAddress: connection.remoteAddress,
            durationMilliseconds: Double(waited), bodyBytes: bodyBytes)
        if let request = connection.pendingHead?.request {
            rejection.method = request.method.rawValue
            rejection.target = request.target
            rejection.origin = request.headers[.origin]
        } else if let head {
            rejection.read(head: head[...])
        } else if connection.hasBufferedInput {
            rejection.read(head: connection.input[connection.inputStart...])
        }
        return rejection
    }

    /// Serializes the response into the shared head buffer and writes head and body in one writev;
    /// only what the socket did not take is copied into the connection, to go out on EPOLLOUT.
    func startResponse(_ connection: Connection, _ response: HTTPResponse) {
        var keepAlive = connection.keepAlive && !timers.isStopping
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
        var headCount = ResponseWriter.writeHead(response, framing: framing, into: &headBuffer)
        if headCount > headBuffer.count {
            headBuffer = [UInt8](repeating: 0, count: headCount)
            headCount = ResponseWriter.writeHead(response, framing: framing, into: &headBuffer)
        }
        headCount = min(headCount, headBuffer.count)
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
        switch connection.socket.write(head: headBuffer, count: headCount, body: body, from: 0) {
        case .done(let count): written = count
        case .wouldBlock: break
        case .failed:
            connections.close(connection)
            return
        }
        if written >= headCount + body.count, connection.outputFile == nil {
            if let pump = connection.bodyPump {
                streamDrained(connection, pump)
            } else {
                finishWrite(connection)
            }
            return
        }
        connection.outputHead = Array(headBuffer[min(written, headCount)..<headCount])
        connection.outputBody = body
        connection.outputOffset = max(0, written - headCount)
        // A file body goes on at once in `flush` (the serve loop's next step): the socket has room.
        if written < headCount + body.count { timers.rearm(connection, .write) }
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
                if progressed { timers.rearm(connection, .write) }
                return false
            case .failed:
                connections.close(connection)
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
                connections.close(connection)
                return false
            case .wouldBlock:
                if progressed { timers.rearm(connection, .write) }
                return false
            case .failed:
                connections.close(connection)
                return false
            }
        }
        connection.outputFile = nil
        connection.outputFileSent = 0
        return true
    }

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
        timers.disarm(connection)
    }

    /// Half-closes after a closing response; `serve` then drains input until the peer closes, so unread
    /// request bytes do not turn our close into a reset that could destroy the response before it is read.
    func linger(_ connection: Connection) {
        connection.socket.shutdownWrite()
        connection.state = .lingering
        connection.discardInput()
        connection.chunkedBody = nil
        connection.pendingHead = nil
        connections.stopServing(connection)
        if connections.lingeringCount > ConnectionTable.maxLingering {
            connections.close(connection)
            return
        }
        timers.rearm(connection, .linger)
    }

    /// The 503 sent to connections over the cap (reported to the rejection handler like any refusal).
    func makeOverloadedResponse(remoteAddress: String) -> [UInt8] {
        let error = RequestError(status: .serviceUnavailable, reason: "too many connections")
        var response = ResponseWriter.makeErrorResponse(for: error)
        if let rejectionHandler {
            let rejection = HTTPRejection(
                status: error.status, reason: error.reason, remoteAddress: remoteAddress, bodyBytes: response.body.count)
            response.headers.append(contentsOf: rejectionHandler(rejection))
        }
        let framing = ResponseWriter.Framing(
            isHeadRequest: false, keepAlive: false, requestVersion: .http1_1,
            date: date.current(), serverField: serverField)
        let (head, body) = ResponseWriter.serialize(response, framing: framing)
        return head + body
    }
}
