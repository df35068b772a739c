import HTTPWire
import Glibc
import Synchronization

/// Everything an event loop changes as it runs, in one place: the connections (and through them each
/// connection's buffers), the shared read and head buffers, timers, the cached date. Not Sendable, and
/// reached only through `EventLoop.loopState`, which debug builds check is on the loop's own thread.
final class LoopState {
    // @exclusivity(unchecked) on the five fields every request passes through (and on Connection's
    // input and scanner): with the runtime's access checks, 10263 -> 12157 instructions per health request.
    /// The listening socket, until a stop closes it.
    var listener: Socket? = nil
    /// Connections indexed by descriptor.
    @exclusivity(unchecked) var connections: [Connection?] = []
    /// Connections open on this loop, serving or not.
    var totalCount: Int = 0
    /// Connections counted in the server's tally.
    var serving: Int = 0
    /// The generation the next accepted connection gets.
    var nextID: UInt32 = 0
    /// The one read buffer every connection reads through.
    var readBuffer: UnsafeMutableBufferPointer<UInt8> = .allocate(capacity: 64 * 1024)
    /// The one buffer response heads are written into; a connection copies out only what a short
    /// write left unsent. Grown when a head does not fit.
    @exclusivity(unchecked) var headBuffer: UnsafeMutableBufferPointer<UInt8> = .allocate(capacity: 4096)
    /// The header list of the last request answered at once, kept for the next request's fields: its
    /// memory is used again instead of allocated and freed per request. (A request handed to an async
    /// handler takes its list along, and the next one starts a new list.)
    var spareRequestHeaders: HTTPHeaders = HTTPHeaders()
    /// Tokens of connections that used up their turn with work left; served again after the next wait.
    @exclusivity(unchecked) var resumable: [UInt64] = []
    /// Each connection's deadline.
    @exclusivity(unchecked) var deadlines = DeadlineLists()
    /// The monotonic time of the last wake-up, in milliseconds.
    var now: Int64 = 0
    /// The Date field value, formatted once a second.
    @exclusivity(unchecked) var date: HTTPDate = HTTPDate()
    /// Set once a stop is requested: when the loop ends at the latest.
    var stopDeadline: Int64? = nil
    /// A descriptor held in reserve so EMFILE can still accept-and-refuse instead of spinning.
    var spareFD: Int32 = -1
    /// Accepting waits for a descriptor to come free (EMFILE).
    var acceptPaused: Bool = false
    /// The accept errnos already logged: each unexpected one is reported once per loop.
    var loggedAcceptErrors: Set<Int32> = []

    init() {}

    /// Frees the two buffers; the loop calls it once, as it releases everything else.
    func deallocateBuffers() {
        readBuffer.deallocate()
        headBuffer.deallocate()
    }
}

extension EventLoop {
    // Each name below stands for the field of `loopState`, so every use passes the one check.

    var listener: Socket? {
        _read { yield loopState.listener }
        _modify { yield &loopState.listener }
    }

    var connections: [Connection?] {
        _read { yield loopState.connections }
        _modify { yield &loopState.connections }
    }

    var totalCount: Int {
        _read { yield loopState.totalCount }
        _modify { yield &loopState.totalCount }
    }

    var serving: Int {
        _read { yield loopState.serving }
        _modify { yield &loopState.serving }
    }

    var nextID: UInt32 {
        _read { yield loopState.nextID }
        _modify { yield &loopState.nextID }
    }

    var readBuffer: UnsafeMutableBufferPointer<UInt8> {
        _read { yield loopState.readBuffer }
        _modify { yield &loopState.readBuffer }
    }

    var headBuffer: UnsafeMutableBufferPointer<UInt8> {
        _read { yield loopState.headBuffer }
        _modify { yield &loopState.headBuffer }
    }

    var spareRequestHeaders: HTTPHeaders {
        _read { yield loopState.spareRequestHeaders }
        _modify { yield &loopState.spareRequestHeaders }
    }

    var resumable: [UInt64] {
        _read { yield loopState.resumable }
        _modify { yield &loopState.resumable }
    }

    var deadlines: DeadlineLists {
        _read { yield loopState.deadlines }
        _modify { yield &loopState.deadlines }
    }

    var now: Int64 {
        _read { yield loopState.now }
        _modify { yield &loopState.now }
    }

    var date: HTTPDate {
        _read { yield loopState.date }
        _modify { yield &loopState.date }
    }

    var stopDeadline: Int64? {
        _read { yield loopState.stopDeadline }
        _modify { yield &loopState.stopDeadline }
    }

    var spareFD: Int32 {
        _read { yield loopState.spareFD }
        _modify { yield &loopState.spareFD }
    }

    var loggedAcceptErrors: Set<Int32> {
        _read { yield loopState.loggedAcceptErrors }
        _modify { yield &loopState.loggedAcceptErrors }
    }

    var acceptPaused: Bool {
        _read { yield loopState.acceptPaused }
        _modify { yield &loopState.acceptPaused }
    }
}
