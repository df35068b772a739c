extension ResponseSender {
    /// Sets up a streamed body after its head: the producer runs in its own task (cancelled by `close`),
    /// and each piece it writes comes back through the mailbox to go out on this thread.
    func startStreaming(_ connection: Connection, length: Int?, producer: @escaping @Sendable (HTTPBodyWriter) async throws -> Void) {
        let pump = ResponseBodyPump(length: length, chunked: length == nil && connection.requestVersion != .http1_0)
        connection.bodyPump = pump
        let token = connection.token
        let mailbox = mailbox
        let writer = HTTPBodyWriter { piece in
            let delivered = await withCheckedContinuation { continuation in
                mailbox.post(LoopMailbox.BodyEvent(token: token, kind: .piece(piece, continuation)))
            }
            guard delivered else { throw HTTPServerError.clientGone }
        }
        connection.handlerTask = Task {
            var finished = true
            do { try await producer(writer) } catch { finished = false }
            mailbox.post(LoopMailbox.BodyEvent(token: token, kind: .end(finished: finished)))
        }
    }

    /// A body event from a producer; events for connections closed since are answered "not delivered".
    /// Returns the connection when it has output to write now, for the loop to serve.
    func handleBodyEvent(_ event: LoopMailbox.BodyEvent) -> Connection? {
        let connection = connections.lookup(event.token)
        switch event.kind {
        case .piece(let piece, let continuation):
            guard let connection, let pump = connection.bodyPump, connection.state == .streaming, pump.outcome == nil else {
                continuation.resume(returning: false)
                return nil
            }
            let (head, body) = pump.frame(piece)
            guard !body.isEmpty else {
                continuation.resume(returning: !pump.overran)
                return nil
            }
            pump.waiter = continuation
            connection.outputHead = head
            connection.outputBody = body
            connection.outputOffset = 0
            connection.state = .writing
            timers.rearm(connection, .write)
            return connection
        case .end(let finished):
            guard let connection, let pump = connection.bodyPump else { return nil }
            pump.outcome = finished
            guard connection.state == .streaming else { return nil }
            finishStreaming(connection, pump)
            return connection
        }
    }

    /// Pending output is written: hand the producer its turn back, or end the body if it is done.
    func streamDrained(_ connection: Connection, _ pump: ResponseBodyPump) {
        connection.outputHead = []
        connection.outputBody = []
        connection.outputOffset = 0
        connection.state = .streaming
        timers.disarm(connection)
        if pump.outcome != nil {
            finishStreaming(connection, pump)
        } else {
            pump.resumeWaiter(!pump.overran)
        }
    }

    /// The producer is done and everything it wrote is out. A body that does not match its framing
    /// (failed producer, short or long against Content-Length) can only be signalled by closing. Else
    /// the trailer is queued, for the serve loop to write.
    private func finishStreaming(_ connection: Connection, _ pump: ResponseBodyPump) {
        connection.bodyPump = nil
        connection.handlerTask = nil
        guard pump.isComplete else {
            connections.close(connection)
            return
        }
        connection.outputHead = pump.trailer()
        connection.outputBody = []
        connection.outputOffset = 0
        connection.state = .writing
        timers.rearm(connection, .write)
    }
}
