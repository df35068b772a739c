import Foundation
import HTTPServer

extension OriginClient {
    /// Reads a file:// URL: 404 when missing, 403 for a directory or an unreadable file, the size
    /// cap checked from the file size before reading. Confinement to a mount root is the caller's job.
    func readFile(_ url: OriginURL, request: OriginRequest) throws(OriginError) -> OriginResponse {
        // RFC 8089 §2: file URLs name a local file when the host is empty or "localhost".
        guard url.authority == nil || url.authority == "" || url.authority?.lowercased() == "localhost" else {
            throw .invalidRequest("file URL with a remote host")
        }
        guard let path = url.path.removingPercentEncoding, path.hasPrefix("/"), !path.contains("\0") else {
            throw .invalidRequest("bad file path")
        }
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .notFoundFile }
        guard !isDirectory.boolValue, files.isReadableFile(atPath: path) else { throw .forbiddenFile }
        let size: Int
        do {
            let attributes = try files.attributesOfItem(atPath: path)
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            throw .forbiddenFile
        }
        let cap = max(0, request.maxBodyBytes)
        guard size <= cap else { throw .tooLarge(limit: cap) }
        var body: [UInt8] = []
        if request.method != .head {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw .forbiddenFile }
            // Closing a read-only handle has nothing to report that the read did not.
            defer { try? handle.close() }
            do {
                // One byte past the cap: a file that grew since the size check is still refused.
                let data = try handle.read(upToCount: min(cap, Int.max - 1) + 1) ?? Data()
                guard data.count <= cap else { throw OriginError.tooLarge(limit: cap) }
                body = [UInt8](data)
            } catch let error as OriginError {
                throw error
            } catch {
                throw .forbiddenFile
            }
        }
        let headers: HTTPHeaders = ["Content-Length": String(request.method == .head ? size : body.count)]
        return OriginResponse(status: 200, headers: headers, body: body, finalURL: url.string)
    }
}
