import Synchronization

/// What the server calls for every well-formed GET, HEAD or OPTIONS request.
public typealias HTTPHandler = @Sendable (HTTPRequest) async throws -> HTTPResponse

/// What the server calls first, on a loop thread, for every request the async handler would get: a
/// response is written at once with no task hop; nil passes the request on to the async handler.
/// It runs on the thread that serves the connection's loop, so it must never block: no I/O, no waiting
/// on locks held across I/O, no long computation. With several loops it runs on several threads at once.
/// A thrown error becomes its response as for `HTTPHandler`.
public typealias HTTPImmediateHandler = @Sendable (HTTPRequest) throws -> HTTPResponse?

/// An HTTP/1.1 server: edge-triggered epoll loop threads (one by default), non-blocking sockets, async handlers.
public final class HTTPServer: Sendable {
    private enum Phase {
        case idle, running, stopping, stopped
    }

    private struct State {
        var phase = Phase.idle
        var loops: [EventLoopThread] = []
        /// Loops whose thread has not ended yet.
        var loopsRunning = 0
        var port = 0
        var address = ""
        /// What ended the first loop that failed, if one did.
        var failure: HTTPServerError?
        var waiters: [CheckedContinuation<HTTPServerError?, Never>] = []
    }

    private let configuration: HTTPServerConfiguration
    private let handler: HTTPHandler
    private let immediateHandler: HTTPImmediateHandler?
    private let rejectionHandler: HTTPRejectionHandler?
    private let state = Mutex(State())
    private let tally = ConnectionTally()

    /// Makes a server; nothing is bound until `start()`. Requests the server refuses itself (malformed,
    /// too large, too slow, over the connection cap) are reported to `rejectionHandler` when given.
    public init(configuration: HTTPServerConfiguration, handler: @escaping HTTPHandler, rejectionHandler: HTTPRejectionHandler? = nil) {
        self.configuration = configuration
        self.handler = handler
        self.immediateHandler = nil
        self.rejectionHandler = rejectionHandler
    }

    /// Makes a server that offers each request to `immediateHandler` on the loop thread first (see
    /// `HTTPImmediateHandler`) and to `handler` in a task only when that returns nil.
    public init(
        configuration: HTTPServerConfiguration,
        handler: @escaping HTTPHandler,
        immediateHandler: @escaping HTTPImmediateHandler,
        rejectionHandler: HTTPRejectionHandler? = nil
    ) {
        self.configuration = configuration
        self.handler = handler
        self.immediateHandler = immediateHandler
        self.rejectionHandler = rejectionHandler
    }

    /// Binds and listens, then starts the loop threads. Throws `HTTPServerError` naming the failed call.
    public func start() throws {
        try state.withLock { state in
            guard state.phase == .idle else {
                throw HTTPServerError(operation: "start", message: "the server was already started")
            }
            // A write to a peer that has gone must return EPIPE, not kill the process.
            ShutdownSignals.ignoreBrokenPipe()
            let count = max(1, configuration.eventLoops)
            var loops: [EventLoopThread] = []
            var bound: SocketAddress?
            var started = 0
            do {
                for _ in 0..<count {
                    // The first socket picks the port (when 0 was asked for); the others join it.
                    let (listener, address) = try Socket.makeListener(
                        host: configuration.host, port: bound?.port ?? configuration.port, reusePort: count > 1)
                    bound = bound ?? address
                    do {
                        loops.append(try EventLoopThread(
                            configuration: configuration, listener: listener, tally: tally, handler: handler,
                            immediateHandler: immediateHandler, rejectionHandler: rejectionHandler,
                            onStopped: { [self] in loopDidStop() },
                            onFailed: { [self] failure in loopDidFail(failure) }
                        ))
                    } catch {
                        listener.close()
                        throw error
                    }
                }
                for loop in loops {
                    try loop.startThread()
                    started += 1
                }
            } catch {
                // Loops already running stop at once; they find the server idle, so their end changes nothing.
                for loop in loops[..<started] { loop.mailbox.requestStop(graceMilliseconds: 0) }
                for loop in loops[started...] { loop.releaseUnstarted() }
                throw error
            }
            state.phase = .running
            state.loops = loops
            state.loopsRunning = loops.count
            state.port = bound?.port ?? 0
            state.address = bound?.description ?? ""
        }
    }

    /// The bound port (after `start()`; the real one when configured with 0).
    public var port: Int { state.withLock { $0.port } }

    /// The bound address, e.g. `127.0.0.1:8080` or `[::1]:8080`.
    public var address: String { state.withLock { $0.address } }

    /// Connections currently being served (not counting ones answered 503 or being closed).
    public var openConnections: Int { tally.value }

    /// True after `start()`, false once a stop has begun.
    public var isAcceptingConnections: Bool { state.withLock { $0.phase == .running } }

    /// Stops accepting, closes idle connections, lets in-flight requests finish within `gracePeriod`
    /// (their responses carry `Connection: close`), then closes the rest and ends the loop.
    public func stop(gracePeriod: Duration) async {
        let loops: [EventLoopThread] = state.withLock { state in
            switch state.phase {
            case .idle:
                state.phase = .stopped
                return []
            case .running:
                state.phase = .stopping
                return state.loops
            case .stopping, .stopped:
                return []
            }
        }
        for loop in loops { loop.mailbox.requestStop(graceMilliseconds: gracePeriod.clampedMilliseconds) }
        await waitUntilStopped()
    }

    /// Returns once every loop has ended (at once if the server never started or has stopped): nil
    /// after a requested stop, or the failure that stopped a loop (`epoll_wait` failing), which the
    /// embedding program should treat as fatal.
    @discardableResult
    public func waitUntilStopped() async -> HTTPServerError? {
        await withCheckedContinuation { (continuation: CheckedContinuation<HTTPServerError?, Never>) in
            let finished: HTTPServerError?? = state.withLock { state in
                switch state.phase {
                case .idle, .stopped:
                    return .some(state.failure)
                case .running, .stopping:
                    state.waiters.append(continuation)
                    return nil
                }
            }
            if let finished { continuation.resume(returning: finished) }
        }
    }

    /// The loops of a running server (for tests that reach into one).
    var eventLoops: [EventLoopThread] { state.withLock { $0.loops } }

    /// A loop could not go on: the server records why and stops its other loops at once, so that
    /// `waitUntilStopped()` returns the failure instead of the server running on short of a loop.
    private func loopDidFail(_ failure: HTTPServerError) {
        let others: [EventLoopThread] = state.withLock { state in
            guard state.phase == .running || state.phase == .stopping else { return [] }
            state.failure = state.failure ?? failure
            guard state.phase == .running else { return [] }
            state.phase = .stopping
            return state.loops
        }
        // The failed loop's mailbox is closed by now, and a closed mailbox ignores the request.
        for loop in others { loop.mailbox.requestStop(graceMilliseconds: 0) }
    }

    /// One loop ended; the server has stopped when the last one has.
    private func loopDidStop() {
        let (waiters, failure) = state.withLock { state -> ([CheckedContinuation<HTTPServerError?, Never>], HTTPServerError?) in
            // A loop stopped because a sibling failed to start belongs to no running server.
            guard state.phase == .running || state.phase == .stopping else { return ([], nil) }
            state.loopsRunning -= 1
            guard state.loopsRunning <= 0 else { return ([], nil) }
            state.phase = .stopped
            state.loops = []
            let waiters = state.waiters
            state.waiters = []
            return (waiters, state.failure)
        }
        for waiter in waiters { waiter.resume(returning: failure) }
    }
}
