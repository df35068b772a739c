import Glibc

/// An open regular file whose bytes a response sends with sendfile(2): from the page cache to the
/// socket without passing through the process, as nginx does with `sendfile on`. The descriptor is
/// closed when the last reference goes, so a file renamed or deleted while it is being sent is still
/// sent whole.
public final class HTTPFile: Sendable {
    let descriptor: Int32
    /// The file's size in bytes when it was opened.
    public let size: Int

    /// Opens `path` for reading. Throws when it cannot be opened or is not a regular file.
    public init(path: String) throws(HTTPServerError) {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw HTTPServerError.system("open(\(path))", errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            _ = Glibc.close(descriptor)
            throw HTTPServerError.system("fstat(\(path))", errno: code)
        }
        guard status.st_mode & S_IFMT == S_IFREG, let size = Int(exactly: status.st_size) else {
            _ = Glibc.close(descriptor)
            throw HTTPServerError(operation: "open(\(path))", message: "not a regular file")
        }
        self.descriptor = descriptor
        self.size = size
    }

    deinit { _ = Glibc.close(descriptor) }

    /// The file's size now (fstat), or nil when it cannot be read; it differs from `size` when the
    /// file was cut short or grew since it was opened.
    public func currentSize() -> Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return Int(exactly: status.st_size)
    }
}

extension HTTPServerError {
    /// Whether the error says a path names nothing (ENOENT, or ENOTDIR for a file used as a directory).
    public var isNoSuchFile: Bool { errorNumber == ENOENT || errorNumber == ENOTDIR }
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
