import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// What a session task reports to: the whole-body transfer or the streamed one.
protocol OriginSessionTransfer: Sendable {
    /// Records the status and fields; false tells the session to stop.
    func receive(_ response: HTTPURLResponse) -> Bool
    /// Takes body bytes; false tells the session to stop.
    func append(_ data: Data) -> Bool
    /// The task finished, with or without an error.
    func complete(_ error: (any Error)?)
}

extension OriginSecureTransfer: OriginSessionTransfer {}

/// Routes URLSession callbacks to the transfer each task belongs to.
final class OriginSessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: NSObject is not Sendable; the only state is this Mutex.
    private let transfers = Mutex<[Int: any OriginSessionTransfer]>([:])

    func register(_ transfer: any OriginSessionTransfer, for identifier: Int) {
        transfers.withLock { $0[identifier] = transfer }
    }

    func unregister(_ identifier: Int) {
        transfers.withLock { _ = $0.removeValue(forKey: identifier) }
    }

    private func transfer(_ task: URLSessionTask) -> (any OriginSessionTransfer)? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    /// Every hop comes back to the client, so each target passes `allowRedirect`.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let transfer = transfer(dataTask), let http = response as? HTTPURLResponse else {
            completionHandler(.allow)
            return
        }
        completionHandler(transfer.receive(http) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(dataTask) else { return }
        if !transfer.append(data) { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        transfer(task)?.complete(error)
    }
}
