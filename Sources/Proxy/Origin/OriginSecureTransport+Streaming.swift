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
        let (task, remaining) = try makeTask(url, method: request.method, headers: headers, deadline: deadline)
        let transfer = OriginSecureStreamTransfer(limit: max(0, request.maxBodyBytes))
        transfer.attach(task)
        let identifier = task.taskIdentifier
        delegate.register(transfer, for: identifier)
        let head = await run(task, within: remaining, wait: transfer.waitForHead) { failure in
            transfer.settleHead(.failure(failure))
            transfer.finish(failure)
        }
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
