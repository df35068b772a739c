import CSystem
import Glibc

/// Accepts on one loop's listener until its backlog is empty: adopts each connection, or answers it 503
/// over the cap or out of descriptors (with a spare descriptor held for that); pauses on other errors,
/// each errno logged once.
final class ConnectionAcceptor {
    /// The listening socket, until a stop closes it.
    var listener: Socket?
    /// A descriptor held in reserve so EMFILE can still accept-and-refuse instead of spinning.
    private var spareFD: Int32
    /// Accepting waits for a descriptor to come free (EMFILE) or a timer tick (other errors).
    private(set) var isPaused = false
    /// The accept errnos already logged: each unexpected one is reported once per loop.
    private var loggedErrors: Set<Int32> = []
    let configuration: HTTPServerConfiguration
    let epoll: EpollSet
    let connections: ConnectionTable
    let timers: LoopTimers
    let sender: ResponseSender

    init(listener: Socket, configuration: HTTPServerConfiguration, epoll: EpollSet, connections: ConnectionTable,
         timers: LoopTimers, sender: ResponseSender) {
        self.listener = listener
        self.configuration = configuration
        self.epoll = epoll
        self.connections = connections
        self.timers = timers
        self.sender = sender
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// Closes the listener: a stop accepts nothing more.
    func closeListener() {
        listener?.close()
        listener = nil
    }

    /// Closes the listener and the spare descriptor; the loop calls it once, as it releases everything else.
    func release() {
        closeListener()
        if spareFD >= 0 { _ = Glibc.close(spareFD) }
        spareFD = -1
    }

    /// Accepts until the backlog is empty. Over the cap, or out of descriptors, a connection is still
    /// accepted and told 503 rather than left to retry in a tight loop.
    func acceptConnections() {
        isPaused = false
        guard let listener else { return }
        if spareFD < 0 { spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC) }
        while true {
            let (result, remoteAddress) = listener.accept()
            switch result {
            case .wouldBlock:
                return
            case .done(let fd):
                adopt(Socket(fd: Int32(truncatingIfNeeded: fd)), remoteAddress: remoteAddress)
            case .failed(let error):
                switch error.errorNumber {
                case ECONNABORTED, EPROTO, EPERM:
                    // The peer gave up (or a firewall refused it) between SYN and accept: try the next one.
                    continue
                case EMFILE, ENFILE:
                    // The kernel reports EMFILE even with an empty backlog, so the outcome decides the loop.
                    switch refuseUsingSpareDescriptor(listener) {
                    case .refused: continue
                    case .backlogEmpty: return
                    case .noSpare:
                        isPaused = true
                        return
                    }
                default:
                    // ENOBUFS, ENOMEM and the like: retry from the timer tick, not in a tight loop. Said
                    // once per errno, so a pause is never silent and a persisting one does not flood the log.
                    if let code = error.errorNumber, loggedErrors.insert(code).inserted {
                        let name = HTTPServerError.errnoName(code)
                        configuration.log.log(.warning, "\(error.operation) failed: \(error.message) (\(name)); accepting pauses until the next timer tick",
                                              [("call", error.operation), ("errno", name)])
                    }
                    isPaused = true
                    return
                }
            }
        }
    }

    /// What freeing the spare descriptor achieved.
    private enum Refusal {
        case refused, backlogEmpty, noSpare
    }

    /// Out of descriptors: frees the spare, accepts one connection, answers 503, closes it, takes the spare back.
    private func refuseUsingSpareDescriptor(_ listener: Socket) -> Refusal {
        guard spareFD >= 0 else { return .noSpare }
        _ = Glibc.close(spareFD)
        spareFD = -1
        let (result, remoteAddress) = listener.accept()
        var outcome = Refusal.noSpare
        switch result {
        case .done(let fd):
            let socket = Socket(fd: Int32(truncatingIfNeeded: fd))
            socket.writeCanned(sender.makeOverloadedResponse(remoteAddress: remoteAddress))
            socket.close()
            outcome = .refused
        case .wouldBlock:
            outcome = .backlogEmpty
        case .failed:
            outcome = .noSpare
        }
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        return spareFD >= 0 ? outcome : .noSpare
    }

    private func adopt(_ socket: Socket, remoteAddress: String) {
        let connection = Connection(socket: socket, id: connections.makeID(), remoteAddress: remoteAddress)
        let overCap = connections.tally.value >= configuration.maxConnections || timers.isStopping
        if overCap, connections.lingeringCount >= ConnectionTable.maxLingering {
            socket.writeCanned(sender.makeOverloadedResponse(remoteAddress: remoteAddress))
            socket.close()
            return
        }
        do {
            let events = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
            try epoll.add(socket.fd, events: events, token: connection.token)
        } catch {
            socket.close()
            return
        }
        connections.insert(connection)
        if overCap {
            connection.isServing = false
            socket.writeCanned(sender.makeOverloadedResponse(remoteAddress: remoteAddress))
            sender.linger(connection)
            return
        }
        connections.startServing(connection)
        socket.setNoDelay()
        timers.arm(connection, .idle)
    }
}
