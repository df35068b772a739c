import HTTPWire

/// Hands one loop's parsed requests to the server's handlers: the immediate handler on the loop thread
/// first, then the async handler in its own task, whose response comes back through the mailbox.
final class RequestDispatcher {
    let handler: HTTPHandler
    let immediateHandler: HTTPImmediateHandler?
    let mailbox: LoopMailbox
    let timers: LoopTimers
    let sender: ResponseSender

    init(handler: @escaping HTTPHandler, immediateHandler: HTTPImmediateHandler?, mailbox: LoopMailbox,
         timers: LoopTimers, sender: ResponseSender) {
        self.handler = handler
        self.immediateHandler = immediateHandler
        self.mailbox = mailbox
        self.timers = timers
        self.sender = sender
    }

    /// Starts answering a parsed request. Bytes kept after it wait until it is answered. Returns the
    /// request's header list when it was answered at once: the request ends here, so the caller's kept
    /// list is the only one holding that memory again.
    func start(_ connection: Connection, _ head: consuming RequestHead) -> HTTPHeaders? {
        connection.state = .handling
        connection.inputAwaitsParsing = true
        timers.disarm(connection)
        connection.isHeadRequest = head.request.method == .head
        connection.keepAlive = head.keepAlive && !timers.isStopping
        connection.requestVersion = head.request.version
        // Moved out of the head, not copied: a copy retains every string and list in the request.
        var request = (consume head).request
        request.remoteAddress = connection.remoteAddress
        if let immediateHandler, let response = ResponseWriter.respondAtOnce(to: request, with: immediateHandler) {
            sender.startResponse(connection, response)
            return request.headers
        }
        let token = connection.token
        let mailbox = mailbox
        let handler = handler
        connection.handlerTask = Task {
            let response = await ResponseWriter.respond(to: request, with: handler)
            mailbox.post(LoopMailbox.Completion(token: token, response: response))
        }
        return nil
    }
}
