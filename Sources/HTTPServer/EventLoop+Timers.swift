/// The head and tail descriptors of one deadline list.
struct TimerList {
    var head: Int32 = -1
    var tail: Int32 = -1
}

// Each timer kind has one fixed duration, so appending at the tail keeps its list sorted by deadline:
// arming, disarming and expiry are O(1) per connection and a sweep touches only what expires.
extension EventLoop {
    /// Arms `kind` for `connection`, unless that kind is already armed (a header deadline does not move
    /// as more bytes of the same head arrive; an idle deadline does not move on stray empty lines).
    func arm(_ connection: Connection, _ kind: TimerKind) {
        if connection.timer == kind { return }
        rearm(connection, kind)
    }

    /// Arms `kind` afresh from now (a write that made progress).
    func rearm(_ connection: Connection, _ kind: TimerKind) {
        disarm(connection)
        guard kind != .none else { return }
        connection.timer = kind
        connection.deadline = now &+ timerDurations[kind.rawValue]
        let fd = connection.socket.fd
        let tail = timers[kind.rawValue].tail
        connection.timerPrevious = tail
        connection.timerNext = -1
        if let previous = connectionAt(tail) { previous.timerNext = fd } else { timers[kind.rawValue].head = fd }
        timers[kind.rawValue].tail = fd
    }

    /// Removes whatever timer `connection` has armed.
    func disarm(_ connection: Connection) {
        let kind = connection.timer
        guard kind != .none else { return }
        if let previous = connectionAt(connection.timerPrevious) {
            previous.timerNext = connection.timerNext
        } else {
            timers[kind.rawValue].head = connection.timerNext
        }
        if let next = connectionAt(connection.timerNext) {
            next.timerPrevious = connection.timerPrevious
        } else {
            timers[kind.rawValue].tail = connection.timerPrevious
        }
        connection.timer = .none
        connection.timerPrevious = -1
        connection.timerNext = -1
    }

    /// Acts on every deadline that has passed.
    func expireTimers() {
        for kind in [TimerKind.header, .idle, .write, .linger] {
            while let connection = connectionAt(timers[kind.rawValue].head), connection.deadline <= now {
                disarm(connection)
                switch kind {
                case .header:
                    // RFC 9110 §15.5.9: 408 says the server gave up waiting and closes.
                    respondWithError(connection, RequestError(status: .requestTimeout, reason: "request head not received in time"))
                    serve(connection)
                case .idle, .write, .linger, .none:
                    close(connection)
                }
            }
        }
    }

    /// Milliseconds epoll_wait may sleep: until the next deadline, at most a second.
    func nextTimeout() -> Int32 {
        if !resumable.isEmpty { return 0 }
        var wait: Int64 = acceptPaused ? 250 : 1000
        for list in timers {
            if let connection = connectionAt(list.head) { wait = min(wait, connection.deadline &- now) }
        }
        if let stopDeadline { wait = min(wait, stopDeadline &- now) }
        return Int32(clamping: max(0, wait))
    }

    private func connectionAt(_ fd: Int32) -> Connection? {
        guard fd >= 0, Int(fd) < connections.count else { return nil }
        return connections[Int(fd)]
    }
}
