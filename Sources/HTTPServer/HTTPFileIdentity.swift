import Glibc

/// What tells one version of a file from another, from the fstat made when it was opened: device and
/// inode (a file renamed over it is another inode), size, and modification time to the nanosecond (an
/// edit in place of the same size). Two opens with equal identities saw the same bytes unless the file
/// was written within the file system's timestamp granularity, as nginx's open_file_cache assumes too.
public struct HTTPFileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let modifiedSeconds: Int64
    public let modifiedNanoseconds: Int64

    init(_ status: stat) {
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
        size = Int64(truncatingIfNeeded: status.st_size)
        modifiedSeconds = Int64(truncatingIfNeeded: status.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(truncatingIfNeeded: status.st_mtim.tv_nsec)
    }
}
