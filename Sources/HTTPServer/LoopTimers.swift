import HTTPWire

/// One loop's clock and deadlines: the time of the last wake-up, each connection's deadline by the kind
/// it waits on, and the stop's deadline once a stop is requested.
final class LoopTimers {
    static let lingerMilliseconds: Int64 = 2000

    /// The monotonic time of the last wake-up, in milliseconds.
    private(set) var now: Int64 = 0
    /// How long each timer kind runs, by `TimerKind.rawValue`.
    let durations: [Int64]
    // Unchecked exclusivity, as on the other per-request loop fields (see ConnectionTable.slots): the
    // deadlines are armed and disarmed twice per request.
    @exclusivity(unchecked) private var deadlines = DeadlineLists()
    /// Set once a stop is requested: when the loop ends at the latest.
    private(set) var stopDeadline: Int64? = nil

    init(_ configuration: HTTPServerConfiguration) {
        durations = [configuration.headerTimeout.clampedMilliseconds, configuration.idleTimeout.clampedMilliseconds,
                     configuration.writeTimeout.clampedMilliseconds, LoopTimers.lingerMilliseconds]
    }

    /// Whether a stop has been requested.
    var isStopping: Bool { stopDeadline != nil }

    /// Reads the clock; the loop calls it on every wake-up.
    func tick() {
        now = MonotonicTime.now().milliseconds
    }

    /// Sets the stop's deadline, `graceMilliseconds` from now.
    func beginStop(graceMilliseconds: Int64) {
        stopDeadline = now + max(0, graceMilliseconds)
    }

    /// Whether the stop's deadline has passed.
    var stopDeadlinePassed: Bool {
        guard let stopDeadline else { return false }
        return now >= stopDeadline
    }

    /// Arms `kind` for `connection`, unless that kind is already armed (a header deadline does not move
    /// as more bytes of the same head arrive; an idle deadline does not move on stray empty lines).
    func arm(_ connection: Connection, _ kind: TimerKind) {
        if deadlines.kind(of: connection.socket.fd) == kind { return }
        rearm(connection, kind)
    }

    /// Arms `kind` afresh from now (a write that made progress).
    func rearm(_ connection: Connection, _ kind: TimerKind) {
        guard kind != .none else {
            disarm(connection)
            return
        }
        deadlines.arm(connection.socket.fd, kind, until: now &+ durations[kind.rawValue])
    }

    /// Removes whatever timer `connection` has armed.
    func disarm(_ connection: Connection) {
        deadlines.disarm(connection.socket.fd)
    }

    /// How long `connection` has waited on its head: from its first byte, which armed the header deadline.
    func headerWait(_ connection: Connection) -> Int64? {
        guard let deadline = deadlines.deadline(of: connection.socket.fd, kind: .header) else { return nil }
        return max(0, now &- (deadline &- durations[TimerKind.header.rawValue]))
    }

    /// The descriptor of the first connection whose `kind` deadline has passed, disarmed; nil when none has.
    func popExpired(_ kind: TimerKind) -> Int32? {
        guard let (fd, deadline) = deadlines.first(kind), deadline <= now else { return nil }
        deadlines.disarm(fd)
        return fd
    }

    /// Milliseconds epoll_wait may sleep: until the next deadline, at most a second (a quarter of one
    /// while accepting is paused, so it resumes soon); 0 when connections wait for their next turn.
    func nextTimeout(turnsPending: Bool, acceptPaused: Bool) -> Int32 {
        if turnsPending { return 0 }
        var wait: Int64 = acceptPaused ? 250 : 1000
        for kind in TimerKind.armable {
            if let (_, deadline) = deadlines.first(kind) { wait = min(wait, deadline &- now) }
        }
        if let stopDeadline { wait = min(wait, stopDeadline &- now) }
        return Int32(clamping: max(0, wait))
    }
}
