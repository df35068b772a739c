import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPServer
import Synchronization

/// One https exchange's state, fed by the session delegate and finished exactly once: by the
/// response completing, the size cap, the deadline, or cancellation.
final class OriginSecureTransfer: Sendable {
    typealias Outcome = Result<OriginResponse, OriginError>

    private struct State {
        var outcome = OriginHandoff<Outcome>()
        var status = 0
        var headers = HTTPHeaders()
        var body: [UInt8] = []
    }

    private let limit: Int
    private let finalURL: String
    private let state = Mutex(State())

    init(limit: Int, finalURL: String) {
        self.limit = limit
        self.finalURL = finalURL
    }

    /// Installs the waiter; resumes at once when the transfer already finished.
    func wait(_ continuation: CheckedContinuation<Outcome, Never>) {
        let early = state.withLock { $0.outcome.wait(continuation) }
        if let early { continuation.resume(returning: early) }
    }

    /// Records the status and fields; false tells the session to stop.
    func receive(_ response: HTTPURLResponse) -> Bool {
        let (headers, decoded) = OriginSecureTransport.receivedHeaders(response)
        if !decoded, let declared = headers["Content-Length"].flatMap(Int.init), declared > limit {
            finish(.failure(.tooLarge(limit: limit)))
            return false
        }
        let status = response.statusCode
        state.withLock { state in
            state.status = status
            state.headers = headers
        }
        if status == 401, headers.values("WWW-Authenticate").contains(where: { $0.lowercased().hasPrefix("basic") }) {
            // FoundationNetworking 6.3.1 hangs forever on this response; hand the status over now.
            finish(.success(OriginResponse(status: status, headers: headers, body: [], finalURL: finalURL)))
            return false
        }
        return true
    }

    /// Appends body bytes; false (and a tooLarge outcome) once past the cap.
    func append(_ data: Data) -> Bool {
        let fits = state.withLock { state -> Bool in
            guard state.outcome.value == nil else { return false }
            guard data.count <= limit - state.body.count else { return false }
            state.body.append(contentsOf: data)
            return true
        }
        if !fits { finish(.failure(.tooLarge(limit: limit))) }
        return fits
    }

    /// The session finished the task, with or without an error.
    func complete(_ error: (any Error)?) {
        if let error {
            finish(.failure(OriginSecureTransport.originError(for: error)))
            return
        }
        let response = state.withLock { state in
            OriginResponse(status: state.status, headers: state.headers, body: state.body, finalURL: finalURL)
        }
        finish(.success(response))
    }

    /// Settles the outcome once; later calls are ignored.
    func finish(_ outcome: Outcome) {
        let waiter = state.withLock { $0.outcome.settle(outcome) }
        waiter?.resume(returning: outcome)
    }
}
