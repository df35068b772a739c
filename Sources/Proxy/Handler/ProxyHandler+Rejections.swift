import HTTPServer
import HTTPWire

extension ProxyHandler {
    /// Logs and counts a request the HTTP server refused before routing (route `rejected`), and gives
    /// its error response the route field and the CORS fields a browser needs to read the error.
    /// Runs on a loop thread; it never blocks.
    public func handleRejection(_ rejection: HTTPRejection) -> HTTPHeaders {
        let status = rejection.status.code
        metrics.recordRequest(route: .rejected, status: status)
        if logger.accessEnabled {
            // As for every request, the path without its query; "-" when the request line never came whole.
            let path = rejection.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            logger.access(
                method: rejection.method.isEmpty ? "-" : rejection.method, path: path.isEmpty ? "-" : path,
                route: .rejected, status: status, bytes: rejection.bodyBytes,
                durationMilliseconds: rejection.durationMilliseconds, originMilliseconds: 0,
                client: rejection.remoteAddress)
        }
        var fields = routeFields[ProxyRoute.rejected.index]
        if !cors.allowsAnyOrigin {
            fields.add(.vary, HTTPFieldName.origin.text)
            if let origin = rejection.origin, cors.allowOrigins.contains(origin) {
                fields.add(.accessControlAllowOrigin, origin)
                fields.add(.accessControlExposeHeaders, CORSPolicy.exposedFields)
            }
        }
        return fields
    }
}
