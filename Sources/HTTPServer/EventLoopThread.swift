import CSystem
import Glibc
import Synchronization

/// One loop thread of the server as the server and other threads see it: the mailbox they post to, the
/// epoll set, and what the thread needs to build its `EventLoop`. Immutable, so Sendable as checked by
/// the compiler; everything the loop changes as it runs is in its `EventLoop`, which exists only on the thread.
final class EventLoopThread: Sendable {
    static let listenerToken = UInt64.max
    static let wakeToken = UInt64.max - 1

    let configuration: HTTPServerConfiguration
    let handler: HTTPHandler
    let immediateHandler: HTTPImmediateHandler?
    /// Told of every request the server refuses itself; adds fields to the error response.
    let rejectionHandler: HTTPRejectionHandler?
    let mailbox: LoopMailbox
    /// Connections counted in `HTTPServer.openConnections`, across every loop of the server.
    let tally: ConnectionTally
    let epoll: EpollSet
    /// The listening socket; the loop's acceptor owns it once the loop is built.
    let listener: Socket
    let onStopped: @Sendable () -> Void
    /// Called on the loop thread, before `onStopped`, when a failure ends the loop.
    let onFailed: @Sendable (HTTPServerError) -> Void

    init(configuration: HTTPServerConfiguration, listener: Socket, tally: ConnectionTally, handler: @escaping HTTPHandler,
         immediateHandler: HTTPImmediateHandler?, rejectionHandler: HTTPRejectionHandler? = nil,
         onStopped: @escaping @Sendable () -> Void, onFailed: @escaping @Sendable (HTTPServerError) -> Void = { _ in }) throws {
        self.configuration = configuration
        self.tally = tally
        self.handler = handler
        self.immediateHandler = immediateHandler
        self.rejectionHandler = rejectionHandler
        self.onStopped = onStopped
        self.onFailed = onFailed
        self.listener = listener
        mailbox = try LoopMailbox()
        do {
            epoll = try EpollSet()
        } catch {
            mailbox.close()
            throw error
        }
        do {
            try epoll.add(listener.fd, events: EPOLLIN.rawValue | EPOLLET.rawValue, token: EventLoopThread.listenerToken)
            try epoll.add(mailbox.wakeFD, events: EPOLLIN.rawValue | EPOLLET.rawValue, token: EventLoopThread.wakeToken)
        } catch {
            epoll.close()
            mailbox.close()
            throw error
        }
    }

    /// Starts the thread, which builds its `EventLoop` and runs it until the loop stops.
    func startThread() throws {
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            EventLoop(Unmanaged<EventLoopThread>.fromOpaque(argument).takeRetainedValue()).run()
            return nil
        }, box.toOpaque())
        guard result == 0 else {
            box.release()
            throw HTTPServerError.system("pthread_create", errno: result)
        }
        pthread_detach(thread)
    }

    /// Frees what a loop whose thread never started holds (another loop of the same server failed to
    /// start). A loop that ran frees its own as it ends.
    func releaseUnstarted() {
        listener.close()
        mailbox.close()
        epoll.close()
    }
}
