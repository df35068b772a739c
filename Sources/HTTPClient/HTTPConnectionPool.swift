import HTTPWire
import Synchronization

/// Idle origin connections kept open for the next exchange with the same endpoint (RFC 9112 §9.3),
/// so a fetch skips the TCP connect and, for https, the TLS handshake. Bounded per endpoint and in
/// total; the newest idle connection is reused first, and one idle longer than `idleTimeout` is
/// closed instead. An exchange given a pool sends no `Connection: close`.
public final class HTTPConnectionPool: Sendable {
    /// The most idle connections kept for one endpoint.
    public let maxIdlePerHost: Int
    /// The most idle connections kept in all.
    public let maxIdle: Int
    /// How long a connection may sit idle before it is closed rather than reused.
    public let idleTimeout: Duration

    private let state = Mutex(IdleConnections())

    /// Makes an empty pool. The 15 s default stays under the keep-alive timeouts origins commonly
    /// use (nginx 75 s, load balancers 60 s, IIS 120 s), so an idle connection is usually dropped by
    /// us before the origin's close can cross our next request; it still spans the seconds between
    /// a player's playlist and segment fetches. Origins with shorter timeouts (Apache's 5 s) are
    /// caught by the check before reuse and, if their close races a request, by the one retry.
    public init(maxIdlePerHost: Int = 8, maxIdle: Int = 64, idleTimeout: Duration = .seconds(15)) {
        self.maxIdlePerHost = max(0, maxIdlePerHost)
        self.maxIdle = max(0, maxIdle)
        self.idleTimeout = idleTimeout
    }

    /// How many idle connections the pool holds now.
    public var idleCount: Int {
        state.withLock { $0.count }
    }

    /// Closes every idle connection (the pool stays usable).
    public func closeIdle() {
        let closing = state.withLock { state -> [IdleConnection] in
            let all = state.idle.values.flatMap { $0 }
            state.idle = [:]
            state.count = 0
            return all
        }
        for entry in closing { entry.handoff.take()?.close() }
    }

    /// The newest idle connection for `endpoint` that is not past its idle timeout, or nil. Expired
    /// connections met on the way are closed. The caller still checks the socket before use.
    func takeIdle(for endpoint: HTTPConnectionEndpoint) -> sending HTTPClientConnection? {
        let now = MonotonicTime.now()
        let (found, expired) = state.withLock { state -> (IdleConnection?, [IdleConnection]) in
            let expired = state.removeExpired(before: now - idleTimeout)
            guard var stack = state.idle[endpoint], let newest = stack.popLast() else { return (nil, expired) }
            state.idle[endpoint] = stack.isEmpty ? nil : stack
            state.count -= 1
            return (newest, expired)
        }
        for entry in expired { entry.handoff.take()?.close() }
        return found?.handoff.take()
    }

    /// Keeps `connection` for the next exchange with `endpoint`, making room by closing the oldest idle
    /// connection of that endpoint (or of any, at the total bound). Closes it at once when nothing may be kept.
    func keep(_ connection: sending HTTPClientConnection, for endpoint: HTTPConnectionEndpoint) {
        let now = MonotonicTime.now()
        let entry = IdleConnection(handoff: ConnectionHandoff(connection), since: now)
        let closing = state.withLock { state -> [IdleConnection] in
            var closing = state.removeExpired(before: now - idleTimeout)
            guard maxIdlePerHost > 0, maxIdle > 0 else { return closing + [entry] }
            var stack = state.idle[endpoint] ?? []
            if stack.count >= maxIdlePerHost {
                closing.append(stack.removeFirst())
                state.count -= 1
            } else if state.count >= maxIdle, let oldest = state.removeOldest() {
                closing.append(oldest)
            }
            stack.append(entry)
            state.idle[endpoint] = stack
            state.count += 1
            return closing
        }
        for entry in closing { entry.handoff.take()?.close() }
    }
}

/// One idle connection and when it went idle.
private struct IdleConnection: Sendable {
    let handoff: ConnectionHandoff
    let since: MonotonicTime
}

/// The pool's contents: a stack per endpoint, newest last.
private struct IdleConnections {
    var idle: [HTTPConnectionEndpoint: [IdleConnection]] = [:]
    var count = 0

    /// Removes every connection idle since before `limit` and returns them for closing.
    mutating func removeExpired(before limit: MonotonicTime) -> [IdleConnection] {
        guard count > 0 else { return [] }
        var expired: [IdleConnection] = []
        for (endpoint, stack) in idle {
            // Each stack is in idle order, oldest first.
            guard let first = stack.first, first.since < limit else { continue }
            let keep = stack.drop { $0.since < limit }
            expired.append(contentsOf: stack.prefix(stack.count - keep.count))
            idle[endpoint] = keep.isEmpty ? nil : Array(keep)
        }
        count -= expired.count
        return expired
    }

    /// Removes the connection idle the longest, across endpoints.
    mutating func removeOldest() -> IdleConnection? {
        guard let (endpoint, stack) = idle.min(by: { ($0.value.first?.since ?? .now()) < ($1.value.first?.since ?? .now()) }),
              let oldest = stack.first else { return nil }
        let rest = stack.dropFirst()
        idle[endpoint] = rest.isEmpty ? nil : Array(rest)
        count -= 1
        return oldest
    }
}
