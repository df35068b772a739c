import Glibc
import HTTPWire

extension HTTPClientConnection {
    /// Whether an idle connection can carry another request: nothing may be readable on it. A
    /// readable idle socket holds the origin's close (EOF, a reset, a TLS close_notify) or bytes no
    /// request asked for; either way the connection is done. A zero timeout: this never waits.
    func isOpenAndQuiet() -> Bool {
        guard descriptor >= 0 else { return false }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        // An interrupted poll is taken as a no: a new connection is always a safe answer.
        return poll(&entry, 1, 0) == 0
    }

    /// Hands an idle connection to a new exchange with its own deadline and cancellation.
    func adopt(deadline: MonotonicTime, cancellation: HTTPClientCancellation) {
        self.deadline = deadline
        self.cancellation = cancellation
    }
}

extension HTTPResponseHead {
    /// Whether the origin lets the connection carry another request after this response
    /// (RFC 9112 §9.3): HTTP/1.1 unless `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`.
    var allowsReuse: Bool { ConnectionOptions(headers).persist(version) }
}

extension HTTPBodyFraming {
    /// Whether the body's end is known without the connection closing (RFC 9112 §6.3): only then can
    /// the next response on the connection be told apart from this one.
    var endsBeforeClose: Bool {
        switch self {
        case .none, .contentLength, .chunked: return true
        case .untilClose: return false
        }
    }
}
