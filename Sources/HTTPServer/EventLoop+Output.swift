extension EventLoop {
    /// Hands a parsed request to the handler in its own task; the response comes back via the mailbox.
    func startHandler(_ connection: Connection, _ head: RequestHead, body: [UInt8]) {
        connection.state = .handling
        disarm(connection)
        connection.isHeadRequest = head.request.method == .head
        connection.keepAlive = head.keepAlive && stopDeadline == nil
        connection.requestVersion = head.request.version
        var request = head.request
        request.body = body
        request.remoteAddress = connection.remoteAddress
        let token = connection.token
        let mailbox = mailbox
        let handler = handler
        connection.handlerTask = Task {
            let response = await ResponseWriter.respond(to: request, with: handler)
            mailbox.post(LoopMailbox.Completion(token: token, response: response))
        }
    }

    /// Answers a request the server refused, then closes: the rest of the input cannot be trusted.
    func respondWithError(_ connection: Connection, _ error: RequestError) {
        connection.input = []
        connection.pendingHead = nil
        connection.body = []
        connection.scanner = HeadScanner()
        connection.keepAlive = false
        connection.isHeadRequest = false
        startResponse(connection, ResponseWriter.makeErrorResponse(for: error))
    }

    /// Serializes the response and writes as much as the socket takes now.
    func startResponse(_ connection: Connection, _ response: HTTPResponse) {
        let keepAlive = connection.keepAlive && stopDeadline == nil
        let framing = ResponseWriter.Framing(
            isHeadRequest: connection.isHeadRequest, keepAlive: keepAlive,
            requestVersion: connection.requestVersion, date: date.current(), serverName: configuration.serverName)
        let (head, body) = ResponseWriter.serialize(response, framing: framing)
        connection.outputHead = head
        connection.outputBody = body
        connection.outputOffset = 0
        connection.closeAfterWrite = !keepAlive
        connection.state = .writing
        rearm(connection, .write)
        flush(connection)
    }

    /// Writes pending output; on EAGAIN waits for EPOLLOUT, the write deadline restarting on progress.
    func flush(_ connection: Connection) {
        let total = connection.outputHead.count + connection.outputBody.count
        var progressed = false
        while connection.outputOffset < total {
            switch connection.socket.write(head: connection.outputHead, body: connection.outputBody, from: connection.outputOffset) {
            case .done(let count) where count > 0:
                connection.outputOffset += count
                progressed = true
            case .done, .wouldBlock:
                if progressed { rearm(connection, .write) }
                return
            case .failed:
                close(connection)
                return
            }
        }
        finishWrite(connection)
    }

    /// After a response: close, or take the next pipelined request, or wait idle.
    private func finishWrite(_ connection: Connection) {
        connection.outputHead = []
        connection.outputBody = []
        connection.outputOffset = 0
        if connection.closeAfterWrite {
            linger(connection)
            return
        }
        connection.state = .awaitingHead
        disarm(connection)
        if !connection.input.isEmpty {
            processBuffered(connection)
            guard isOpen(connection) else { return }
        }
        if connection.readable {
            readInput(connection)
        } else {
            armWaitingTimer(connection)
        }
    }

    /// Half-closes after a closing response and drains input until the peer closes, so unread request
    /// bytes do not turn our close into a reset that could destroy the response before it is read.
    func linger(_ connection: Connection) {
        connection.socket.shutdownWrite()
        connection.state = .lingering
        connection.input = []
        connection.body = []
        connection.pendingHead = nil
        if connection.isServing {
            connection.isServing = false
            serving -= 1
            servingCount.store(serving, ordering: .relaxed)
        }
        if totalCount - serving > EventLoop.maxLingering {
            close(connection)
            return
        }
        rearm(connection, .linger)
        drainLingering(connection)
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
            servingCount.store(serving, ordering: .relaxed)
        }
        connection.handlerTask?.cancel()
        connection.handlerTask = nil
        connection.socket.close()
    }
}
