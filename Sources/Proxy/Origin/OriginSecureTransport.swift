import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPServer
import Synchronization

/// https through one long-lived URLSession, set up against the FoundationNetworking bugs:
/// no cookies or cache, our own headers, redirects returned to us, our own total deadline,
/// the size cap enforced while receiving, and an early exit for the 401-Basic hang.
final class OriginSecureTransport: Sendable {
    let delegate: OriginSessionDelegate
    private let totalTimeout: Duration
    /// Made on first use: creating a URLSession initializes libcurl and its TLS libraries, several
    /// megabytes of resident memory that a proxy with only http or file origins never needs.
    private let lazySession = Mutex<URLSession?>(nil)

    /// Prepares the transport; the session itself is created by the first https exchange.
    init(configuration: OriginClient.Configuration) {
        totalTimeout = configuration.totalTimeout
        delegate = OriginSessionDelegate()
    }

    /// The one long-lived session.
    var session: URLSession {
        lazySession.withLock { existing in
            if let existing { return existing }
            let settings = URLSessionConfiguration.default
            // Cookies leak between clients by default, and nothing here may be cached.
            settings.httpShouldSetCookies = false
            settings.httpCookieAcceptPolicy = .never
            settings.httpCookieStorage = nil
            settings.urlCache = nil
            settings.requestCachePolicy = .reloadIgnoringLocalCacheData
            // These are idle timeouts and anything under 1 s becomes 0; the real deadline is ours.
            let seconds = Double(totalTimeout.components.seconds) + 2
            settings.timeoutIntervalForRequest = max(2, seconds)
            settings.timeoutIntervalForResource = max(2, seconds)
            let made = URLSession(configuration: settings, delegate: delegate, delegateQueue: nil)
            existing = made
            return made
        }
    }

    /// Ends the session (if one was made) when the client goes away.
    func invalidate() {
        lazySession.withLock { $0?.invalidateAndCancel() }
    }

    /// One https exchange, no redirects followed, cancelled when `deadline` passes or the task is cancelled.
    func fetch(_ url: OriginURL, request: OriginRequest, headers: HTTPHeaders, deadline: ContinuousClock.Instant) async throws(OriginError) -> OriginResponse {
        let (task, remaining) = try makeTask(url, method: request.method, headers: headers, deadline: deadline)
        let transfer = OriginSecureTransfer(limit: max(0, request.maxBodyBytes), finalURL: url.string)
        delegate.register(transfer, for: task.taskIdentifier)
        defer { delegate.unregister(task.taskIdentifier) }
        let outcome = await run(task, within: remaining, wait: transfer.wait) { failure in
            transfer.finish(.failure(failure))
        }
        return try outcome.get()
    }

    /// A data task for one https exchange (no cookies, only the given fields) and the time it has;
    /// throws for a URL that cannot be sent or a deadline already past.
    func makeTask(
        _ url: OriginURL, method: HTTPMethod, headers: HTTPHeaders, deadline: ContinuousClock.Instant
    ) throws(OriginError) -> (task: URLSessionDataTask, remaining: Duration) {
        guard url.endpoint(defaultPort: 443) != nil,
              let foundationURL = URL(string: OriginURL.percentEncodingUnsafeBytes(url.string)) else {
            throw .invalidRequest("bad or credential-carrying https URL")
        }
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { throw .timeout }
        var urlRequest = URLRequest(url: foundationURL)
        urlRequest.httpMethod = method.rawValue
        urlRequest.httpShouldHandleCookies = false
        for field in headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        return (session.dataTask(with: urlRequest), remaining)
    }

    /// Starts `task` and waits for what `wait` is handed: the transfer's own result, or the one
    /// `abandon` settles when `remaining` runs out (`.timeout`) or the caller is cancelled
    /// (`.cancelled`); the session task is cancelled along with it.
    func run<Outcome: Sendable>(
        _ task: URLSessionDataTask, within remaining: Duration,
        wait: (CheckedContinuation<Outcome, Never>) -> Void, abandon: @escaping @Sendable (OriginError) -> Void
    ) async -> Outcome {
        let timer = DispatchWorkItem {
            abandon(.timeout)
            task.cancel()
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                wait(continuation)
                task.resume()
                DispatchQueue.global().asyncAfter(deadline: .now() + OriginSecureTransport.dispatchInterval(remaining), execute: timer)
            }
        } onCancel: {
            abandon(.cancelled)
            task.cancel()
        }
        timer.cancel()
        return outcome
    }

    /// A Duration as whole nanoseconds for Dispatch, clamped.
    static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        guard seconds < 86_400 else { return .seconds(86_400) }
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    /// A session head's fields sorted by name, hop-by-hop fields removed. `decoded` says libcurl
    /// decoded the body (it decodes every one it can) and Content-Encoding and the compressed
    /// Content-Length, which it leaves behind, were dropped.
    static func receivedHeaders(_ response: HTTPURLResponse) -> (headers: HTTPHeaders, decoded: Bool) {
        var headers = HTTPHeaders()
        let pairs = response.allHeaderFields.compactMap { key, value -> (String, String)? in
            guard let name = key as? String else { return nil }
            return (name, "\(value)")
        }
        for (name, value) in pairs.sorted(by: { $0.0.lowercased() < $1.0.lowercased() }) {
            headers.add(name, value)
        }
        headers = OriginClient.removingHopByHopFields(headers)
        guard headers.contains("Content-Encoding") else { return (headers, false) }
        headers.remove("Content-Encoding")
        headers.remove("Content-Length")
        return (headers, true)
    }

    /// The origin error for a URLSession failure.
    static func originError(for error: any Error) -> OriginError {
        guard let urlError = error as? URLError else { return .unreachable("https request failed") }
        switch urlError.code {
        case .timedOut:
            return .timeout
        case .cancelled:
            return .cancelled
        case .cannotFindHost, .dnsLookupFailed:
            return .unreachable("DNS lookup failed")
        case .cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet:
            return .unreachable("connect failed")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return .unreachable("TLS handshake failed")
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData:
            return .badResponse("malformed https response")
        default:
            return .unreachable("https request failed (URLError \(urlError.code.rawValue))")
        }
    }
}
