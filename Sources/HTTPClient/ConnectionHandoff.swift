import Synchronization

/// A connection on its way from the exchange done with it to the next one, possibly on another
/// thread. It goes in as `sending`, so the compiler checks that the giving side keeps no use of it,
/// and comes out once, as `sending` again: a connection is never in two exchanges at a time.
final class ConnectionHandoff: Sendable {
    private let slot: Mutex<HTTPClientConnection?>

    init(_ connection: sending HTTPClientConnection) {
        slot = Mutex(connection)
    }

    /// The connection, to the first caller only; nil after.
    func take() -> sending HTTPClientConnection? {
        slot.withLock { connection -> sending HTTPClientConnection? in
            let taken = connection
            connection = nil
            return taken
        }
    }
}
