import Foundation

/// One object being written to the cache as it streams from the origin. It becomes an entry only
/// through `finish`, and only when exactly the declared number of body bytes arrived.
final class DiskCacheFill: @unchecked Sendable {
    // @unchecked: a fill is driven by one task at a time (the one copying the origin body).
    let entry: DiskCacheEntry
    let fileName: String
    let tempPath: String
    let bodyOffset: Int
    private let cache: DiskCache
    private let handle: FileHandle
    private var written = 0
    private var closed = false

    init(cache: DiskCache, entry: DiskCacheEntry, fileName: String, tempPath: String, bodyOffset: Int, handle: FileHandle) {
        self.cache = cache
        self.entry = entry
        self.fileName = fileName
        self.tempPath = tempPath
        self.bodyOffset = bodyOffset
        self.handle = handle
    }

    deinit {
        if !closed { abandon() }
    }

    /// Appends body bytes. More bytes than declared fail the fill.
    func append(_ piece: [UInt8]) throws {
        guard piece.count <= entry.length - written else { throw DiskCacheError.lengthMismatch }
        try handle.write(contentsOf: piece)
        written += piece.count
    }

    /// Flushes to stable storage and puts the entry in place when the byte count matches; otherwise
    /// discards it. Returns whether the entry was stored.
    @discardableResult
    func finish() -> Bool {
        guard !closed else { return false }
        guard written == entry.length else {
            abandon()
            return false
        }
        closed = true
        do {
            // Synchronized before the rename: after a crash the name never points at unwritten data.
            try handle.synchronize()
            try handle.close()
        } catch {
            cache.abandon(self)
            return false
        }
        return cache.install(self)
    }

    /// Discards the fill and its temp file.
    func abandon() {
        guard !closed else { return }
        closed = true
        try? handle.close()
        cache.abandon(self)
    }
}
