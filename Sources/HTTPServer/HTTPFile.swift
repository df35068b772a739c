import Glibc
import HTTPWire

/// An open regular file whose bytes a response sends with sendfile(2): from the page cache to the
/// socket without passing through the process, as nginx does with `sendfile on`. The descriptor is
/// closed when the last reference goes, so a file renamed or deleted while it is being sent is still
/// sent whole.
public final class HTTPFile: Sendable {
    let descriptor: Int32
    /// The file's size in bytes when it was opened.
    public let size: Int
    /// The file's device, inode, size and modification time when it was opened (the same fstat).
    public let identity: HTTPFileIdentity

    /// Opens `path` for reading. Throws when it cannot be opened or is not a regular file. The open does
    /// not block (O_NONBLOCK), so a FIFO at `path` is refused instead of holding the thread.
    public convenience init(path: String) throws(HTTPServerError) {
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw HTTPServerError.system("open(\(path))", errno: errno) }
        try self.init(adopting: descriptor, name: path)
    }

    /// Takes over an open descriptor (closed here if it is refused): fstat must say a regular file.
    init(adopting descriptor: Int32, name: String) throws(HTTPServerError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            _ = Glibc.close(descriptor)
            throw HTTPServerError.system("fstat(\(name))", errno: code)
        }
        guard status.st_mode & S_IFMT == S_IFREG, let size = Int(exactly: status.st_size) else {
            _ = Glibc.close(descriptor)
            throw HTTPServerError(operation: "open(\(name))", message: HTTPFile.notRegularMessage)
        }
        self.descriptor = descriptor
        self.size = size
        self.identity = HTTPFileIdentity(status)
    }

    /// The message of the error for something that is not a regular file (a directory, FIFO, device).
    static let notRegularMessage = "not a regular file"

    deinit { _ = Glibc.close(descriptor) }

    /// The file's size now (fstat), or nil when it cannot be read; it differs from `size` when the
    /// file was cut short or grew since it was opened.
    public func currentSize() -> Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return Int(exactly: status.st_size)
    }

    /// Reads up to `limit` bytes from the start of the file (pread, EINTR retried): fewer when the file
    /// is shorter. Throws when a read fails.
    public func read(upTo limit: Int) throws(HTTPServerError) -> [UInt8] {
        var bytes: [UInt8] = []
        // No larger than asked for: a small playlist file is read per request, and zeroing 64 KiB was most of its cost.
        var chunk = [UInt8](repeating: 0, count: min(64 * 1024, max(limit, 0)))
        while bytes.count < limit {
            let want = min(chunk.count, limit - bytes.count)
            let offset = off_t(bytes.count)
            let count: Int
            switch SystemCall.perform({ chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, want, offset) } }) {
            case .done(let read): count = min(read, want)
            // A regular file never blocks; were it to report EAGAIN, that is a failed read.
            case .wouldBlock: throw HTTPServerError.system("pread", errno: EAGAIN)
            case .failed(let code): throw HTTPServerError.system("pread", errno: code)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }

    /// Reads an open descriptor that need not be a regular file (standard input, a pipe) until end of
    /// file, EINTR retried: Foundation's `readDataToEndOfFile` traps on an interrupted read. Throws
    /// when a read fails, and on EAGAIN (a non-blocking descriptor with nothing yet is not an end).
    public static func readToEnd(descriptor: Int32) throws(HTTPServerError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let want = chunk.count
            switch SystemCall.perform({ chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, want) } }) {
            case .done(let read):
                if read == 0 { return bytes }
                bytes.append(contentsOf: chunk[..<min(read, want)])
            case .wouldBlock: throw HTTPServerError.system("read", errno: EAGAIN)
            case .failed(let code): throw HTTPServerError.system("read", errno: code)
            }
        }
    }
}

extension HTTPServerError {
    /// Whether the error says a path names nothing (ENOENT, or ENOTDIR for a file used as a directory).
    public var isNoSuchFile: Bool { errorNumber == ENOENT || errorNumber == ENOTDIR }

    /// Whether the error says a path would have left its confining directory (EXDEV from
    /// RESOLVE_BENEATH or the walk, ELOOP for too many or refused symlinks).
    public var isOutsideDirectory: Bool { errorNumber == EXDEV || errorNumber == ELOOP }

    /// Whether the error says the path names something other than a regular file.
    public var isNotRegularFile: Bool { errorNumber == nil && message == HTTPFile.notRegularMessage }
}

/// The part of a file a response body sends.
public struct HTTPFileRegion: Sendable {
    /// The open file.
    public let file: HTTPFile
    /// The first byte sent.
    public let offset: Int
    /// How many bytes are sent.
    public let length: Int

    /// The region `offset ..< offset + length` of `file`; nil when it does not lie within the file.
    public init?(file: HTTPFile, offset: Int, length: Int) {
        guard offset >= 0, length >= 0, offset <= file.size, length <= file.size - offset else { return nil }
        self.file = file
        self.offset = offset
        self.length = length
    }
}
