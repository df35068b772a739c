import HTTPClient
import HTTPServer
import Synchronization

/// Shares one origin fetch among concurrent identical requests. Each caller waits on its own
/// continuation, so a cancelled caller leaves at once without disturbing the others; the shared
/// fetch is cancelled only when no caller is left waiting for it.
final class OriginFetchCoalescer: Sendable {
    /// What makes two requests the same fetch.
    struct Key: Hashable, Sendable {
        var method: String
        var url: String
        var headers: [String]
        var headersOrigin: String?
        var everyHopHeaders: [String]
        /// Callers whose checks vetted different addresses (a name whose answer changed) never share.
        var addresses: [IPAddress]?
        var maxBodyBytes: Int
        var followRedirects: Bool

        init(_ request: OriginRequest) {
            method = request.method.rawValue
            url = request.url
            headers = request.headers.flatMap { [$0.name.lowercased(), $0.value] }
            headersOrigin = request.headersOrigin
            everyHopHeaders = request.everyHopHeaders.flatMap { [$0.name.lowercased(), $0.value] }
            addresses = request.addresses
            maxBodyBytes = request.maxBodyBytes
            followRedirects = request.followRedirects
        }
    }

    typealias Outcome = Result<OriginClient.FetchResult, OriginError>

    private struct Flight {
        var id: UInt64
        var task: Task<Void, Never>?
        var waiters: [UInt64: CheckedContinuation<Outcome, Never>]
    }

    private struct State {
        var nextID: UInt64 = 0
        var flights: [Key: Flight] = [:]
    }

    private let state = Mutex(State())

    /// The number of fetches in flight (for tests and metrics).
    var inFlightCount: Int { state.withLock { $0.flights.count } }

    /// The number of callers waiting across all fetches (for tests and metrics).
    var waitingCount: Int { state.withLock { $0.flights.values.reduce(0) { $0 + $1.waiters.count } } }

    /// Joins the flight for `key`, or starts one running `operation`; `joined` says which.
    func run(_ key: Key, _ operation: @escaping @Sendable () async -> Outcome) async -> (outcome: Outcome, joined: Bool) {
        let waiterID = state.withLock { state in
            state.nextID &+= 1
            return state.nextID
        }
        let joined = Mutex(false)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let startedFlight: UInt64? = state.withLock { state in
                    // The cancel handler sets nothing when it ran before this registration; check here.
                    if Task.isCancelled {
                        continuation.resume(returning: .failure(.cancelled))
                        return nil
                    }
                    if state.flights[key] != nil {
                        state.flights[key]?.waiters[waiterID] = continuation
                        joined.withLock { $0 = true }
                        return nil
                    }
                    state.nextID &+= 1
                    state.flights[key] = Flight(id: state.nextID, task: nil, waiters: [waiterID: continuation])
                    return state.nextID
                }
                guard let flightID = startedFlight else { return }
                // Unstructured on purpose: the fetch must not inherit the first caller's cancellation.
                let task = Task {
                    let outcome = await operation()
                    self.finish(key, flightID: flightID, outcome)
                }
                let orphaned = state.withLock { state -> Bool in
                    guard state.flights[key]?.id == flightID else { return true }
                    state.flights[key]?.task = task
                    return false
                }
                if orphaned { task.cancel() }
            }
        } onCancel: {
            leave(key, waiterID: waiterID)
        }
        return (outcome, joined.withLock { $0 })
    }

    /// Hands the outcome to every waiter of this flight.
    private func finish(_ key: Key, flightID: UInt64, _ outcome: Outcome) {
        let waiters = state.withLock { state -> [CheckedContinuation<Outcome, Never>] in
            guard let flight = state.flights[key], flight.id == flightID else { return [] }
            state.flights[key] = nil
            return Array(flight.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// A cancelled caller stops waiting; the last one out cancels the fetch.
    private func leave(_ key: Key, waiterID: UInt64) {
        let (waiter, abandoned) = state.withLock { state -> (CheckedContinuation<Outcome, Never>?, Task<Void, Never>?) in
            guard var flight = state.flights[key], let waiter = flight.waiters.removeValue(forKey: waiterID) else {
                return (nil, nil)
            }
            if flight.waiters.isEmpty {
                state.flights[key] = nil
                return (waiter, flight.task)
            }
            state.flights[key] = flight
            return (waiter, nil)
        }
        waiter?.resume(returning: .failure(.cancelled))
        abandoned?.cancel()
    }
}
