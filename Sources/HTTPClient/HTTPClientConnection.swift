import Glibc
import HTTPWire

/// One non-blocking TCP connection used by one exchange at a time, on that exchange's thread; a pooled
/// connection passes to the next exchange through `HTTPConnectionPool`. Every wait goes through
/// `waitUntilReady`, which honours the deadline and the cancellation eventfd.
final class HTTPClientConnection {
    /// The socket, or -1 once closed.
    private(set) var descriptor: Int32
    /// The instant the next wait must end by: the whole exchange's deadline, or for a streamed body
    /// the idle deadline, moved forward before each read.
    var deadline: MonotonicTime
    /// Fired when the calling task is cancelled; replaced when a pooled connection starts another exchange.
    var cancellation: HTTPClientCancellation
    /// The address the socket is connected to (set by `open`).
    var peer: IPAddress?
    /// The TLS session for an https exchange, set once the handshake is done; nil for plain http.
    var tls: TLSSession?
    /// Receive space, made once per connection and reused by every read on it (a pooled connection
    /// keeps it across exchanges).
    var scratch = [UInt8](repeating: 0, count: 65_536)

    init(descriptor: Int32, deadline: MonotonicTime, cancellation: HTTPClientCancellation) {
        self.descriptor = descriptor
        self.deadline = deadline
        self.cancellation = cancellation
    }

    deinit {
        close()
    }

    /// Ends TLS (if any) and closes the socket; safe to call twice, from any thread once no exchange uses it.
    func close() {
        if let tls {
            HTTPClientThread.withoutBrokenPipeSignal { tls.close() }
            self.tls = nil
        }
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
    }

    /// Writes every byte, waiting for writability as needed. MSG_NOSIGNAL: a closed peer gives EPIPE, not SIGPIPE.
    func send(_ bytes: [UInt8]) throws(HTTPClientError) {
        if let tls { return try sendSecurely(bytes, through: tls) }
        var offset = 0
        while offset < bytes.count {
            let outcome = SystemCall.perform {
                bytes.withUnsafeBytes { raw in
                    Glibc.send(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset, Int32(MSG_NOSIGNAL))
                }
            }
            switch outcome {
            case .done(let written) where written > 0: offset += written
            case .wouldBlock: try waitUntilReady(Int16(POLLOUT), until: deadline, timeoutError: .timeout)
            // A send that moves nothing on a stream socket means the connection is unusable.
            case .done: throw .connectionLost(SystemCall.describe(call: "send", errno: 0))
            case .failed(let code): throw .connectionLost(SystemCall.describe(call: "send", errno: code))
            }
        }
    }

    /// Appends up to `limit` received bytes to `buffer`; returns how many, 0 at end of stream.
    func receive(into buffer: inout [UInt8], limit: Int) throws(HTTPClientError) -> Int {
        let wanted = max(1, min(limit, scratch.count))
        if let tls { return try receiveSecurely(into: &buffer, wanted: wanted, through: tls) }
        while true {
            let socket = descriptor
            switch SystemCall.perform({ scratch.withUnsafeMutableBytes { Glibc.recv(socket, $0.baseAddress, wanted, 0) } }) {
            case .done(let count):
                buffer.append(contentsOf: scratch[0..<min(count, wanted)])
                return count
            case .wouldBlock: try waitUntilReady(Int16(POLLIN), until: deadline, timeoutError: .timeout)
            case .failed(let code): throw .connectionLost(SystemCall.describe(call: "recv", errno: code))
            }
        }
    }

    /// Blocks in poll(2) until the socket has `events`, the deadline passes (`timeoutError`) or the
    /// task is cancelled (`.cancelled`).
    func waitUntilReady(_ events: Int16, until limit: MonotonicTime, timeoutError: HTTPClientError) throws(HTTPClientError) {
        while true {
            if cancellation.isFired { throw .cancelled }
            let remaining = limit - MonotonicTime.now()
            guard remaining > .zero else { throw timeoutError }
            let cancelDescriptor = cancellation.descriptor
            var fds = [
                pollfd(fd: descriptor, events: events, revents: 0),
                pollfd(fd: cancelDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready: Int
            switch SystemCall.perform({ Int(poll(&fds, cancelDescriptor >= 0 ? 2 : 1, HTTPClientConnection.pollMilliseconds(remaining))) }) {
            case .done(let count): ready = count
            // poll(2) never reports EAGAIN; were it to, the loop polls again.
            case .wouldBlock: continue
            case .failed(let code): throw .connectionLost(SystemCall.describe(call: "poll", errno: code))
            }
            if ready == 0 { continue }
            if cancelDescriptor >= 0 && fds[1].revents != 0 { throw .cancelled }
            // POLLERR/POLLHUP also count: the next send/recv reports what happened.
            if fds[0].revents != 0 { return }
        }
    }

    /// Rounds up so a sub-millisecond remainder still sleeps, and caps at poll's 32-bit range (capped at a minute; the loop re-polls).
    static func pollMilliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        if seconds >= 60 { return 60_000 }
        let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(1, millis))
    }

}
