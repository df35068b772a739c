import Foundation
import HTTPServer
import HTTPWire

/// Answers file:// URLs from disk, for directory mounts and file origins: confined to the mount's
/// directory when there is one, under the request's size cap.
struct OriginFileReader: Sendable {
    /// Reads a file:// URL: 404 when missing, 403 for anything but a readable regular file (a directory,
    /// FIFO, device) or a path that leaves `request.fileDirectory`, the size cap checked from the file
    /// size before reading.
    func read(_ url: OriginURL, request: OriginRequest) throws(OriginError) -> OriginResponse {
        // RFC 8089 §2: file URLs name a local file when the host is empty or "localhost".
        guard url.authority == nil || url.authority == "" || url.authority?.lowercased() == "localhost" else {
            throw .invalidRequest("file URL with a remote host")
        }
        guard let path = url.path.removingPercentEncoding, path.hasPrefix("/"), !path.contains("\0") else {
            throw .invalidRequest("bad file path")
        }
        // Opened once, non-blocking (a FIFO is refused, not waited on), and through the mount's
        // directory when there is one; size and bytes then come from that one descriptor.
        let file: HTTPFile
        if let directory = request.fileDirectory {
            do {
                file = try FileConfinement.openFile(path, in: directory)
            } catch {
                throw error.status == .notFound ? .notFoundFile : .forbiddenFile
            }
        } else {
            do {
                file = try HTTPFile(path: path)
            } catch {
                throw error.isNoSuchFile ? .notFoundFile : .forbiddenFile
            }
        }
        let size = file.size
        let cap = max(0, request.maxBodyBytes)
        guard size <= cap else { throw .tooLarge(limit: cap) }
        var body: [UInt8] = []
        if request.method != .head {
            do {
                // One byte past the cap: a file that grew since it was opened is still refused.
                body = try file.read(upTo: min(cap, Int.max - 1) + 1)
            } catch {
                throw .forbiddenFile
            }
            guard body.count <= cap else { throw .tooLarge(limit: cap) }
        }
        let headers: HTTPHeaders = [HTTPFieldName.contentLength.text: String(request.method == .head ? size : body.count)]
        return OriginResponse(status: 200, headers: headers, body: body, finalURL: url.string)
    }
}
