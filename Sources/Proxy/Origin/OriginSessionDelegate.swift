import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Routes URLSession callbacks to the transfer each task belongs to.
final class OriginSessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: NSObject is not Sendable; the only state is this Mutex.
    private let transfers = Mutex<[Int: OriginSecureTransfer]>([:])

    func register(_ transfer: OriginSecureTransfer, for identifier: Int) {
        transfers.withLock { $0[identifier] = transfer }
    }

    func unregister(_ identifier: Int) {
        transfers.withLock { _ = $0.removeValue(forKey: identifier) }
    }

    private func transfer(_ task: URLSessionTask) -> OriginSecureTransfer? {
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
