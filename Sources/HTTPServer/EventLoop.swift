import CSystem
import Glibc
import HTTPWire
import Synchronization

/// One loop thread of the server: edge-triggered epoll over its listener, its mailbox eventfd and every
/// connection it accepted. What the loop changes as it runs is in `loopState`, reached only on that
/// thread; other threads talk to it through `mailbox` and read the shared `tally`.
final class EventLoop: @unchecked Sendable {
    static let listenerToken = UInt64.max
    static let wakeToken = UInt64.max - 1
    /// Connections answered 503 or closing that may linger at once; past it they are closed outright.
    static let maxLingering = 1024
    static let lingerMilliseconds: Int64 = 2000

    let configuration: HTTPServerConfiguration
    let limits: RequestLimits
    /// The Server field line every response carries, sanitized once.
    let serverField: [UInt8]
    let handler: HTTPHandler
    let immediateHandler: HTTPImmediateHandler?
    /// Told of every request the server refuses itself; adds fields to the error response.
    let rejectionHandler: HTTPRejectionHandler?
    let mailbox: LoopMailbox
    /// Connections counted in `HTTPServer.openConnections`, across every loop of the server.
    let tally: ConnectionTally
    let epollFD: Int32

    /// How long each timer kind runs, by `TimerKind.rawValue`.
    let timerDurations: [Int64]
    /// The loop-only state; private so that `loopState`, with its thread check, is the one way to it.
    private let confinedState = LoopState()
    /// The loop thread, once it runs (0 before).
    let ownerThread = Atomic<UInt>(0)
    private let onStopped: @Sendable () -> Void
    /// Called on the loop thread, before `onStopped`, when a failure ends the loop.
    private let onFailed: @Sendable (HTTPServerError) -> Void

    init(configuration: HTTPServerConfiguration, listener: Socket, tally: ConnectionTally, handler: @escaping HTTPHandler,
         immediateHandler: HTTPImmediateHandler?, rejectionHandler: HTTPRejectionHandler? = nil,
         onStopped: @escaping @Sendable () -> Void, onFailed: @escaping @Sendable (HTTPServerError) -> Void = { _ in }) throws {
        self.configuration = configuration
        self.tally = tally
        self.limits = RequestLimits(configuration)
        self.serverField = ResponseWriter.serverField(configuration.serverName)
        self.handler = handler
        self.immediateHandler = immediateHandler
        self.rejectionHandler = rejectionHandler
        self.onStopped = onStopped
        self.onFailed = onFailed
        timerDurations = [configuration.headerTimeout.clampedMilliseconds, configuration.idleTimeout.clampedMilliseconds,
                          configuration.writeTimeout.clampedMilliseconds, EventLoop.lingerMilliseconds]
        mailbox = try LoopMailbox()
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else {
            let error = HTTPServerError.system("epoll_create1", errno: errno)
            mailbox.close()
            confinedState.deallocateBuffers()
            throw error
        }
        do {
            try register(listener.fd, events: EPOLLIN.rawValue | EPOLLET.rawValue, token: EventLoop.listenerToken)
            try register(mailbox.wakeFD, events: EPOLLIN.rawValue | EPOLLET.rawValue, token: EventLoop.wakeToken)
        } catch {
            _ = Glibc.close(epollFD)
            mailbox.close()
            confinedState.deallocateBuffers()
            throw error
        }
        self.listener = listener
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// The loop-only state. Once the loop thread runs, only it may reach the state; before that the
    /// thread that builds the loop sets it up (and frees it, for a loop whose thread never started).
    var loopState: LoopState {
        assert(isOnOwningThread, "an event loop's state was reached off its thread")
        return confinedState
    }

    private var isOnOwningThread: Bool {
        let owner = ownerThread.load(ordering: .relaxed)
        return owner == 0 || pthread_equal(owner, pthread_self()) != 0
    }

    /// Adds a descriptor to the epoll set.
    func register(_ fd: Int32, events: UInt32, token: UInt64) throws {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else {
            throw HTTPServerError.system("epoll_ctl(ADD, \(fd))", errno: errno)
        }
    }

    /// Starts the loop thread.
    func startThread() throws {
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<EventLoop>.fromOpaque(argument).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
        guard result == 0 else {
            box.release()
            throw HTTPServerError.system("pthread_create", errno: result)
        }
        pthread_detach(thread)
    }

    /// The loop: wait, dispatch events, expire timers; until a requested stop completes.
    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var failure: HTTPServerError?
        ownerThread.store(pthread_self(), ordering: .relaxed)
        now = EventLoop.monotonicMilliseconds()
        waiting: while true {
            let timeout = nextTimeout()
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
                configuration.log.log(.error, "epoll_wait failed: \(error.message) (\(HTTPServerError.errnoName(code))); the event loop stops",
                                     [("call", "epoll_wait"), ("errno", HTTPServerError.errnoName(code))])
                failure = error
                break waiting
            }
            now = EventLoop.monotonicMilliseconds()
            for index in 0..<count {
                let event = events[index]
                dispatch(event.events, token: event.data.u64)
            }
            resumeConnections()
            expireTimers()
            if acceptPaused { acceptConnections() }
            if let deadline = stopDeadline, totalCount == 0 || now >= deadline { break }
        }
        shutDown(failure: failure)
    }

    private func dispatch(_ flags: UInt32, token: UInt64) {
        switch token {
        case EventLoop.listenerToken:
            acceptConnections()
        case EventLoop.wakeToken:
            drainMailbox()
        default:
            guard let connection = lookup(token) else { return }
            if flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 {
                close(connection)
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

    /// Serves the connections that yielded their turn last time round.
    private func resumeConnections() {
        guard !resumable.isEmpty else { return }
        let tokens = resumable
        resumable = []
        for token in tokens {
            if let connection = lookup(token) { serve(connection) }
        }
    }

    /// The live connection an epoll token or completion refers to, if it has not been closed since.
    func lookup(_ token: UInt64) -> Connection? {
        let fd = Int(UInt32(truncatingIfNeeded: token))
        guard fd < connections.count, let connection = connections[fd], connection.id == UInt32(truncatingIfNeeded: token >> 32) else {
            return nil
        }
        return connection
    }

    /// Whether `connection` is still the one registered under its descriptor.
    func isOpen(_ connection: Connection) -> Bool {
        let fd = Int(connection.socket.fd)
        return fd < connections.count && connections[fd] === connection
    }

    private func drainMailbox() {
        let (completions, bodyEvents, stopGrace) = mailbox.take()
        if let stopGrace, stopDeadline == nil { beginStop(graceMilliseconds: stopGrace) }
        for completion in completions {
            guard let connection = lookup(completion.token), connection.state == .handling else { continue }
            connection.handlerTask = nil
            startResponse(connection, completion.response)
            serve(connection)
        }
        for event in bodyEvents { handleBodyEvent(event) }
    }

    /// Stops accepting, closes idle connections and lets the rest finish by the deadline.
    private func beginStop(graceMilliseconds: Int64) {
        stopDeadline = now + max(0, graceMilliseconds)
        if let listener {
            listener.close()
            self.listener = nil
        }
        for case let connection? in connections {
            switch connection.state {
            case .awaitingHead where !connection.hasBufferedInput: close(connection)
            case .awaitingHead, .readingBody, .handling: connection.keepAlive = false
            case .writing, .streaming, .lingering: break
            }
        }
    }

    private func shutDown(failure: HTTPServerError?) {
        for case let connection? in connections { close(connection) }
        release()
        if let failure { onFailed(failure) }
        onStopped()
    }

    /// Frees what a loop holds. Also for a loop whose thread never started (another loop of the same
    /// server failed to start).
    func release() {
        listener?.close()
        listener = nil
        if spareFD >= 0 { _ = Glibc.close(spareFD) }
        spareFD = -1
        mailbox.close()
        _ = Glibc.close(epollFD)
        loopState.deallocateBuffers()
    }

    /// Milliseconds on the monotonic clock.
    static func monotonicMilliseconds() -> Int64 {
        MonotonicTime.now().milliseconds
    }
}

/// The count of connections being served, shared by every loop of a server.
final class ConnectionTally: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func add(_ delta: Int) { count.add(delta, ordering: .relaxed) }
}
