import Foundation

extension DiskCache {
    /// Counts a disk error in `/metrics` and logs it at warn the first time its kind (operation and
    /// error) is seen, so a full disk is one line, not one per request.
    func reportDiskError(_ operation: String, _ error: any Error) {
        let nsError = error as NSError
        let kind = operation + " " + nsError.domain + " " + String(nsError.code)
        figures.withLock { $0.errors[operation, default: 0] += 1 }
        let first = loggedErrors.withLock { $0.insert(kind).inserted }
        guard first else { return }
        logger?.log(.warn, "disk cache error: object not cached, served from the origin", [
            ("operation", operation), ("directory", directory), ("error", Self.describe(error)),
        ])
    }

    /// An error in words, without the file's name (that is in the directory logged beside it).
    static func describe(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
