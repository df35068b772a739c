/// The connections open on one loop, by descriptor, and how many of them are served (counted in the
/// server's tally and against its cap) rather than answered 503 or lingering; closing one happens here.
final class ConnectionTable {
    /// Connections answered 503 or closing that may linger at once; past it they are closed outright.
    static let maxLingering = 1024

    // @exclusivity(unchecked) on the loop fields every request passes through (this one, the deadlines,
    // the response head buffer and date, the resumable tokens, and Connection's input and scanner): kept
    // on a measured figure, in bench/README.md ("Raw memory and disabled exclusivity").
    /// Connections indexed by descriptor.
    @exclusivity(unchecked) private var slots: [Connection?] = []
    /// Connections open on this loop, serving or not.
    private(set) var totalCount = 0
    /// Connections counted in the server's tally.
    private(set) var serving = 0
    /// The generation the next accepted connection gets.
    private var lastID: UInt32 = 0
    let tally: ConnectionTally
    private let timers: LoopTimers

    init(tally: ConnectionTally, timers: LoopTimers) {
        self.tally = tally
        self.timers = timers
    }

    /// Connections open and not served: lingering after a closing response, or answered 503.
    var lingeringCount: Int { totalCount - serving }

    /// A generation for a new connection, so a token names it and not a later one on the same descriptor.
    func makeID() -> UInt32 {
        lastID &+= 1
        return lastID
    }

    /// Registers an accepted connection under its descriptor; it is served once `startServing` counts it.
    func insert(_ connection: Connection) {
        let fd = Int(connection.socket.fd)
        if fd >= slots.count {
            slots.append(contentsOf: repeatElement(nil, count: fd - slots.count + 64))
        }
        slots[fd] = connection
        totalCount += 1
    }

    /// Counts the connection as served.
    func startServing(_ connection: Connection) {
        serving += 1
        tally.add(1)
    }

    /// Stops counting the connection as served (it lingers or closes).
    func stopServing(_ connection: Connection) {
        guard connection.isServing else { return }
        connection.isServing = false
        serving -= 1
        tally.add(-1)
    }

    /// The live connection an epoll token or completion refers to, if it has not been closed since.
    func lookup(_ token: UInt64) -> Connection? {
        let fd = Int(UInt32(truncatingIfNeeded: token))
        guard fd < slots.count, let connection = slots[fd], connection.id == UInt32(truncatingIfNeeded: token >> 32) else {
            return nil
        }
        return connection
    }

    /// The connection open on `fd`, if one is.
    func connection(on fd: Int32) -> Connection? {
        fd >= 0 && Int(fd) < slots.count ? slots[Int(fd)] : nil
    }

    /// Whether `connection` is still the one registered under its descriptor.
    func isOpen(_ connection: Connection) -> Bool {
        let fd = Int(connection.socket.fd)
        return fd < slots.count && slots[fd] === connection
    }

    /// Every open connection, at the time of the call.
    var all: [Connection] { slots.compactMap { $0 } }

    /// Closes the connection, cancelling a running handler.
    func close(_ connection: Connection) {
        guard isOpen(connection) else { return }
        timers.disarm(connection)
        slots[Int(connection.socket.fd)] = nil
        totalCount -= 1
        stopServing(connection)
        connection.handlerTask?.cancel()
        connection.handlerTask = nil
        // A producer waiting on this connection learns the client is gone (its write throws).
        connection.bodyPump?.resumeWaiter(false)
        connection.bodyPump = nil
        connection.outputFile = nil
        connection.socket.close()
    }
}
