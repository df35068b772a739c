extension EventLoop {
    /// Steps one connection may take per turn before yielding to the others (a client pipelining
    /// without pause must not hold the loop thread); a step is one read, one parse or one write.
    static let stepsPerTurn = 256

    /// Moves the connection along until it waits on something: input, a handler, output space or the
    /// peer's close. One loop rather than calls from reading into writing and back, so a long run of
    /// pipelined requests answered on the loop thread costs no stack.
    func serve(_ connection: Connection) {
        for _ in 0..<EventLoop.stepsPerTurn {
            guard isOpen(connection) else { return }
            switch connection.state {
            case .writing:
                guard flush(connection) else { return }
            case .awaitingHead, .readingBody:
                if connection.inputAwaitsParsing {
                    processBuffered(connection)
                } else if connection.readable {
                    readOnce(connection)
                } else {
                    armWaitingTimer(connection)
                    return
                }
            case .lingering:
                if connection.readable { drainLingering(connection) }
                return
            case .handling:
                return
            }
        }
        // Out of steps with work left: edge-triggered epoll will not report it again, so keep the token.
        if isOpen(connection) { resumable.append(connection.token) }
    }
}
