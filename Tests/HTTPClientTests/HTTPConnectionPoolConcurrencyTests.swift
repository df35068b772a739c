@testable import HTTPClient
@testable import HTTPWire
import Synchronization
import TestSupport
import Testing

/// The pool driven from many tasks at once: connections are handed out to one exchange at a time,
/// come back or are closed, and the counts add up.
@Suite(.timeLimit(.minutes(2))) struct HTTPConnectionPoolConcurrencyTests {
    /// What the tasks saw, shared between them.
    final class Ledger: Sendable {
        /// Connections some task holds now.
        let inUse = Mutex(Set<ObjectIdentifier>())
        /// Times a connection was taken while another task held it.
        let doubleHandouts = Atomic<Int>(0)
        /// The paths each origin connection carried, in order.
        let paths = Mutex([Int: [String]]())
    }

    @Test func manyTasksTakingKeepingAndClosingLeaveExactlyTheConnectionsKeptAndNotTaken() async {
        let pool = HTTPConnectionPool(maxIdlePerHost: 100_000, maxIdle: 100_000, idleTimeout: .seconds(3600))
        let endpoints = (0..<4).map { HTTPConnectionEndpoint(HTTPClientRequest(host: "h\($0)", target: "/"), address: nil) }
        let ledger = Ledger()
        let cancellation = HTTPClientCancellation()
        let root = SeededGenerator()
        let totals = await withTaskGroup(of: (kept: Int, taken: Int, closed: Int).self) { group in
            for task in 0..<32 {
                group.addTask {
                    var random = SeededGenerator(seed: root.seed &+ UInt64(task))
                    var kept = 0, taken = 0, closed = 0
                    for _ in 0..<300 {
                        let endpoint = endpoints[Int.random(in: 0..<endpoints.count, using: &random)]
                        guard Int.random(in: 0..<3, using: &random) > 0 else {
                            // A new connection (no socket: closing it is a no-op) whose exchange went well.
                            pool.keep(HTTPClientConnection(descriptor: -1, deadline: .now(), cancellation: cancellation), for: endpoint)
                            kept += 1
                            continue
                        }
                        guard let connection = pool.takeIdle(for: endpoint) else { continue }
                        taken += 1
                        let id = ObjectIdentifier(connection)
                        if !ledger.inUse.withLock({ $0.insert(id).inserted }) { ledger.doubleHandouts.add(1, ordering: .relaxed) }
                        await Task.yield()
                        ledger.inUse.withLock { _ = $0.remove(id) }
                        if Bool.random(using: &random) {
                            // The exchange failed: the connection is closed, never returned.
                            connection.close()
                            closed += 1
                        } else {
                            pool.keep(connection, for: endpoint)
                            kept += 1
                        }
                    }
                    return (kept, taken, closed)
                }
            }
            return await group.reduce(into: (kept: 0, taken: 0, closed: 0)) {
                $0 = ($0.kept + $1.kept, $0.taken + $1.taken, $0.closed + $1.closed)
            }
        }
        #expect(ledger.doubleHandouts.load(ordering: .relaxed) == 0)
        #expect(totals.taken > 0 && totals.closed > 0)
        #expect(pool.idleCount == totals.kept - totals.taken)
        var left = 0
        for endpoint in endpoints {
            while pool.takeIdle(for: endpoint) != nil { left += 1 }
        }
        #expect(left == totals.kept - totals.taken)
        #expect(pool.idleCount == 0)
    }

    @Test func concurrentFetchesShareConnectionsAndAFailedExchangeEndsItsConnection() async throws {
        let ledger = Ledger()
        let origin = try KeepAliveOrigin { path, place in
            ledger.paths.withLock { $0[place.connection, default: []].append(path) }
            // A status line that is not one: the client refuses the answer and closes the connection.
            return path == "/bad" ? .respond(Array("garbage\r\n\r\n".utf8)) : .respond(KeepAliveOrigin.response("ok"))
        }
        defer { origin.stop() }
        let pool = HTTPConnectionPool(maxIdlePerHost: 4, maxIdle: 8)
        let root = SeededGenerator()
        let (good, bad) = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for task in 0..<24 {
                group.addTask {
                    var random = SeededGenerator(seed: root.seed &+ UInt64(task))
                    var good = 0, bad = 0
                    for _ in 0..<8 {
                        if Int.random(in: 0..<4, using: &random) == 0 {
                            await #expect(throws: HTTPClientError.self) { try await HTTPConnectionPoolTests.get(origin, "/bad", pool: pool) }
                            bad += 1
                        } else {
                            let body = try await HTTPConnectionPoolTests.get(origin, "/good", pool: pool).body
                            #expect(body == Array("ok".utf8))
                            good += 1
                        }
                    }
                    return (good, bad)
                }
            }
            return try await group.reduce(into: (0, 0)) { $0 = ($0.0 + $1.0, $0.1 + $1.1) }
        }
        #expect(good + bad == 24 * 8 && bad > 0)
        #expect(origin.requestsPerConnection.reduce(0, +) == good + bad)
        // Connections were reused, and a refused answer is always the last on its connection.
        #expect(origin.acceptedConnections < good + bad)
        let carried = ledger.paths.withLock { $0 }
        #expect(carried.values.allSatisfy { !$0.dropLast().contains("/bad") })
        #expect(carried.values.reduce(0) { $0 + $1.filter { $0 == "/bad" }.count } == bad)
        #expect(pool.idleCount <= 4)
        pool.closeIdle()
        #expect(pool.idleCount == 0)
        try await eventually { origin.openConnections == 0 }
    }
}
