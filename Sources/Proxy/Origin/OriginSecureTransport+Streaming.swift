import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPServer

extension OriginSecureTransport {
    /// One streamed https exchange, no redirects followed: returns at the head (which must arrive
    /// before `deadline`); the body follows with backpressure by suspending the task.
    func stream(
        _ url: OriginURL, request: OriginRequest, headers: HTTPHeaders, deadline: ContinuousClock.Instant, idleTimeout: Duration
    ) async throws(OriginError) -> OriginStream {
        guard url.endpoint(defaultPort: 443) != nil,
              let foundationURL = URL(string: OriginURL.percentEncodingUnsafeBytes(url.string)) else {
            throw .invalidRequest("bad or credential-carrying https URL")
        }
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { throw .timeout }
        var urlRequest = URLRequest(url: foundationURL)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpShouldHandleCookies = false
        for field in headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        let transfer = OriginSecureStreamTransfer(limit: max(0, request.maxBodyBytes))
        let task = session.dataTask(with: urlRequest)
        transfer.attach(task)
        let identifier = task.taskIdentifier
        delegate.register(transfer, for: identifier)
        let timer = DispatchWorkItem {
            transfer.settleHead(.failure(.timeout))
            transfer.finish(.timeout)
            task.cancel()
        }
        let head = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.waitForHead(continuation)
                task.resume()
                DispatchQueue.global().asyncAfter(deadline: .now() + OriginSecureTransport.dispatchInterval(remaining), execute: timer)
            }
        } onCancel: {
            transfer.settleHead(.failure(.cancelled))
            transfer.finish(.cancelled)
            task.cancel()
        }
        timer.cancel()
        let delegate = self.delegate
        let stop: @Sendable () -> Void = {
            transfer.finish(.cancelled)
            task.cancel()
            delegate.unregister(identifier)
        }
        switch head {
        case .failure(let error):
            stop()
            throw error
        case .success(let head):
            return OriginStream(
                status: head.status, headers: head.headers, finalURL: url.string, bodyLength: head.bodyLength,
                next: { () async throws(OriginError) -> [UInt8]? in
                    let piece = await withTaskCancellationHandler { await transfer.next() } onCancel: { stop() }
                    if case .success(nil) = piece { delegate.unregister(identifier) }
                    return try piece.get()
                },
                cancel: stop)
        }
    }
}
