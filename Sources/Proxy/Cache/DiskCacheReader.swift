import Foundation

/// An open cache entry (stored, or still filling): its fields and a handle that reads the body in
/// pieces, so a large object is never held in memory whole.
final class DiskCacheReader: Sendable {
    /// The stored entry.
    let entry: DiskCacheEntry
    private let bodyOffset: Int
    /// Used by one task at a time (the response producer): a seek and the read after it must not
    /// interleave with another reader's.
    private let handle: FileHandle
    /// The fill writing this file, when it is still being written, and this reader's id with it; reads
    /// wait for its bytes (and take them from memory once a disk error stopped the caching).
    private let following: (fill: DiskCacheFill, reader: Int)?

    /// The size of each read from disk.
    static let pieceBytes = 256 * 1024

    init(entry: DiskCacheEntry, bodyOffset: Int, handle: FileHandle, following: (fill: DiskCacheFill, reader: Int)? = nil) {
        self.entry = entry
        self.bodyOffset = bodyOffset
        self.handle = handle
        self.following = following
    }

    deinit {
        if let following { following.fill.detach(following.reader) }
        try? handle.close()
    }

    /// Calls `deliver` with the body bytes `lower..<lower+count`, in pieces. Throws if the file ends
    /// early (it was truncated under us), its fill failed, or `deliver` throws (the client went away).
    func read(from lower: Int, count: Int, _ deliver: ([UInt8]) async throws -> Void) async throws {
        guard lower >= 0, count >= 0, lower <= entry.length, count <= entry.length - lower else {
            throw DiskCacheError.outOfBounds
        }
        // A fill is read once, front to back: when this read ends, the copy no longer waits for it.
        defer { if let following { following.fill.detach(following.reader) } }
        var position = lower
        var remaining = count
        while remaining > 0 {
            let source: DiskCacheFill.Source
            if let following {
                source = try await following.fill.source(for: following.reader, at: position)
            } else {
                source = .disk(end: entry.length)
            }
            switch source {
            case .disk(let end):
                guard end > position else { throw DiskCacheError.truncated }
                try handle.seek(toOffset: UInt64(bodyOffset + position))
                guard let data = try handle.read(upToCount: min(remaining, end - position, Self.pieceBytes)), !data.isEmpty else {
                    throw DiskCacheError.truncated
                }
                remaining -= data.count
                position += data.count
                try await deliver(Array(data))
            case .memory(let bytes, let offset):
                // `source` only answers with the piece that holds `position`.
                let start = position - offset
                guard start >= 0, start < bytes.count else { throw DiskCacheError.truncated }
                let take = min(remaining, bytes.count - start)
                try await deliver(Array(bytes[start..<(start + take)]))
                remaining -= take
                position += take
                if let following { following.fill.advance(following.reader, to: position) }
            }
        }
    }
}

/// Why a cache read or fill failed.
enum DiskCacheError: Error {
    /// A read past the stored body.
    case outOfBounds
    /// The entry file ended before its declared length.
    case truncated
    /// The origin sent a different number of bytes than it declared.
    case lengthMismatch
    /// The fill a reader was following ended without storing the object.
    case fillFailed
    /// The origin answered a request for missing bytes with another version of the object.
    case originChanged
}
