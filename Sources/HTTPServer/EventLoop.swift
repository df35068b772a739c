import CSystem
import Glibc
import HTTPWire

/// One loop thread's work: waits on epoll and hands each event to the part it concerns. The parts own
/// what the loop changes as it runs: the acceptor its listener, the table its connections, the reader
/// its input buffers, the sender its output buffers, the timers their deadlines. None of them is
/// Sendable, and the loop is built on its own thread (`EventLoopThread.startThread`), so the compiler
/// keeps all of it there; other threads reach the loop only through its mailbox.
final class EventLoop {
    /// Steps one connection may take per turn before yielding to the others (a client pipelining
    /// without pause must not hold the loop thread); a step is one read, one parse or one write.
    static let stepsPerTurn = 256

    let thread: EventLoopThread
    let timers: LoopTimers
    let connections: ConnectionTable
    let sender: ResponseSender
    let reader: RequestReader
    let acceptor: ConnectionAcceptor
    /// Tokens of connections that used up their turn with work left; served again after the next wait.
    /// (Unchecked exclusivity: see ConnectionTable.slots.)
    @exclusivity(unchecked) private var resumable: [UInt64] = []

    /// Builds the loop's parts. On the loop's thread, or on a test's thread for a loop never started.
    init(_ thread: EventLoopThread) {
        self.thread = thread
        let configuration = thread.configuration
        timers = LoopTimers(configuration)
        connections = ConnectionTable(tally: thread.tally, timers: timers)
        sender = ResponseSender(configuration: configuration, rejectionHandler: thread.rejectionHandler,
                                mailbox: thread.mailbox, connections: connections, timers: timers)
        let dispatcher = RequestDispatcher(handler: thread.handler, immediateHandler: thread.immediateHandler,
                                           mailbox: thread.mailbox, timers: timers, sender: sender)
        reader = RequestReader(limits: RequestLimits(configuration), connections: connections, timers: timers,
                               sender: sender, dispatcher: dispatcher)
        acceptor = ConnectionAcceptor(listener: thread.listener, configuration: configuration, epoll: thread.epoll,
                                      connections: connections, timers: timers, sender: sender)
    }

    /// The loop: wait, dispatch events, expire timers; until a requested stop completes.
    func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var failure: HTTPServerError?
        let epollFD = thread.epoll.fd
        timers.tick()
        waiting: while true {
            let timeout = timers.nextTimeout(turnsPending: !resumable.isEmpty, acceptPaused: acceptor.isPaused)
            // EINTR is retried in SystemCall.perform with the same timeout, as `now` has not moved.
            let result = events.withUnsafeMutableBufferPointer { buffer in
                SystemCall.perform { Int(epoll_wait(epollFD, buffer.baseAddress, Int32(buffer.count), timeout)) }
            }
            let count: Int
            switch result {
            case .done(let ready): count = ready
            // epoll_wait never reports EAGAIN; were it to, it would be a wake-up with nothing ready.
            case .wouldBlock: count = 0
            case .failed(let code):
                // Only EBADF, EFAULT and EINVAL remain: the loop cannot go on. It says so, closes every
                // connection and reports the failure, so the server ends rather than hanging silently.
                let error = HTTPServerError.system("epoll_wait", errno: code)
                thread.configuration.log.log(.error, "epoll_wait failed: \(error.message) (\(HTTPServerError.errnoName(code))); the event loop stops",
                                             [("call", "epoll_wait"), ("errno", HTTPServerError.errnoName(code))])
                failure = error
                break waiting
            }
            timers.tick()
            for index in 0..<count {
                let event = events[index]
                dispatch(event.events, token: event.data.u64)
            }
            resumeConnections()
            expireTimers()
            if acceptor.isPaused { acceptor.acceptConnections() }
            if timers.isStopping, connections.totalCount == 0 || timers.stopDeadlinePassed { break }
        }
        shutDown(failure: failure)
    }

    private func dispatch(_ flags: UInt32, token: UInt64) {
        switch token {
        case EventLoopThread.listenerToken:
            acceptor.acceptConnections()
        case EventLoopThread.wakeToken:
            drainMailbox()
        default:
            guard let connection = connections.lookup(token) else { return }
            if flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 {
                connections.close(connection)
                return
            }
            if flags & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0 {
                connection.readable = true
                if flags & EPOLLRDHUP.rawValue != 0 { connection.peerShutdown = true }
            }
            // EPOLLOUT needs no flag: a connection in `.writing` always tries its pending output.
            serve(connection)
        }
    }

    /// Moves the connection along until it waits on something: input, a handler, output space or the
    /// peer's close. One loop rather than calls from reading into writing and back, so a long run of
    /// pipelined requests answered on the loop thread costs no stack.
    func serve(_ connection: Connection) {
        for _ in 0..<EventLoop.stepsPerTurn {
            guard connections.isOpen(connection) else { return }
            switch connection.state {
            case .writing:
                guard sender.flush(connection) else { return }
            case .awaitingHead, .readingBody:
                if connection.inputAwaitsParsing {
                    reader.processBuffered(connection)
                } else if connection.readable {
                    reader.readOnce(connection)
                } else {
                    reader.armWaitingTimer(connection)
                    return
                }
            case .lingering:
                if connection.readable { reader.drainLingering(connection) }
                return
            case .handling, .streaming:
                return
            }
        }
        // Out of steps with work left: edge-triggered epoll will not report it again, so keep the token.
        if connections.isOpen(connection) { resumable.append(connection.token) }
    }

    /// Serves the connections that yielded their turn last time round.
    private func resumeConnections() {
        guard !resumable.isEmpty else { return }
        let tokens = resumable
        resumable = []
        for token in tokens {
            if let connection = connections.lookup(token) { serve(connection) }
        }
    }

    private func drainMailbox() {
        let (completions, bodyEvents, stopGrace) = thread.mailbox.take()
        if let stopGrace, !timers.isStopping { beginStop(graceMilliseconds: stopGrace) }
        for completion in completions {
            guard let connection = connections.lookup(completion.token), connection.state == .handling else { continue }
            connection.handlerTask = nil
            sender.startResponse(connection, completion.response)
            serve(connection)
        }
        for event in bodyEvents {
            if let connection = sender.handleBodyEvent(event) { serve(connection) }
        }
    }

    /// Acts on every deadline that has passed.
    private func expireTimers() {
        for kind in TimerKind.armable {
            while let fd = timers.popExpired(kind) {
                // A closed connection disarms its timer, so an armed descriptor has its connection.
                guard let connection = connections.connection(on: fd) else { continue }
                switch kind {
                case .header:
                    // RFC 9110 §15.5.9: 408 says the server gave up waiting and closes.
                    sender.respondWithError(connection, RequestError(status: .requestTimeout, reason: "request head not received in time"))
                    serve(connection)
                case .idle, .write, .linger, .none:
                    connections.close(connection)
                }
            }
        }
    }

    /// Stops accepting, closes idle connections and lets the rest finish by the deadline.
    private func beginStop(graceMilliseconds: Int64) {
        timers.beginStop(graceMilliseconds: graceMilliseconds)
        acceptor.closeListener()
        for connection in connections.all {
            switch connection.state {
            case .awaitingHead where !connection.hasBufferedInput: connections.close(connection)
            case .awaitingHead, .readingBody, .handling: connection.keepAlive = false
            case .writing, .streaming, .lingering: break
            }
        }
    }

    private func shutDown(failure: HTTPServerError?) {
        for connection in connections.all { connections.close(connection) }
        release()
        if let failure { thread.onFailed(failure) }
        thread.onStopped()
    }

    /// Frees what the loop holds: listener, spare descriptor, mailbox, epoll set, buffers. Once, as the
    /// loop ends (or as a test that drove a loop by hand is done with it).
    func release() {
        acceptor.release()
        thread.mailbox.close()
        thread.epoll.close()
        reader.deallocate()
        sender.deallocate()
    }
}
