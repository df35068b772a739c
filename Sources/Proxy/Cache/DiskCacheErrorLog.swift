import Foundation
import HTTPWire
import Synchronization

/// Disk errors of one cache directory: counted by operation for `/metrics`, and logged at warn the
/// first time each kind (operation and error) is seen, so a full disk is one line, not one per request.
final class DiskCacheErrorLog: Sendable {
    /// The directory named in each line.
    let directory: String
    private let logger: ProxyLogger?
    /// The kinds of disk error already logged.
    private let logged = Mutex(Set<String>())
    private let countsByOperation = Mutex([String: Int]())

    init(directory: String, logger: ProxyLogger?) {
        self.directory = directory
        self.logger = logger
    }

    /// Errors since startup, by operation (`create`, `write`, `sync`, `rename`, `delete`).
    var counts: [String: Int] { countsByOperation.withLock { $0 } }

    /// Counts the error and logs it when its kind is new.
    func report(_ operation: String, _ error: any Error) {
        let nsError = error as NSError
        let kind = operation + " " + nsError.domain + " " + String(nsError.code)
        countsByOperation.withLock { $0[operation, default: 0] += 1 }
        let first = logged.withLock { $0.insert(kind).inserted }
        guard first else { return }
        logger?.log(.warn, "disk cache error: object not cached, served from the origin", [
            ("operation", operation), ("directory", directory), ("error", Self.describe(error)),
        ])
    }

    /// An error in words, without the file's name (that is in the directory logged beside it).
    static func describe(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return errnoText(posix.code.rawValue) }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = Int32(exactly: underlying.code) {
            return errnoText(code)
        }
        return nsError.localizedDescription
    }

    /// errno in words through the wire layer's one errno naming, its symbol when the C library has no text.
    private static func errnoText(_ code: Int32) -> String {
        SystemCall.message(errno: code) ?? SystemCall.name(errno: code)
    }
}
