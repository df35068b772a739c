import Foundation
import Synchronization

/// Starts, stores and abandons the fills that copy origin objects into the cache: each reserves its
/// whole file against the budget before it starts, writes to a temp file, and is renamed into place
/// only once complete.
final class DiskCacheFills: Sendable {
    private let store: DiskCacheStore
    /// Test seam: a write that would take a fill's body past this many bytes fails as a full file
    /// system's does (ENOSPC). `Int.max`, the default, never.
    let simulatedFullAfter = Atomic<Int>(Int.max)

    init(store: DiskCacheStore) {
        self.store = store
    }

    /// Starts storing `entry` (a complete object or a piece); nil when it cannot fit the budget, its
    /// header is too long, a fill for the same file is already running, or the temp file cannot be made.
    /// Its whole file is reserved against the budget first, least recently used files evicted to make
    /// room; room the running fills have reserved is not given away, so a fill that would not fit
    /// beside them is not started (the response then streams from the origin alone).
    func begin(_ entry: DiskCacheEntry) -> DiskCacheFill? {
        let maxBytes = store.maxBytes
        let header = entry.encodedHeader()
        guard header.count <= DiskCacheEntry.maxHeaderBytes, entry.length >= 0,
              entry.length <= maxBytes - header.count else { return nil }
        let name = entry.fileName
        let fileBytes = header.count + entry.length
        let reserved: (tempPath: String?, evicted: [String])? = store.index.withLock { index in
            guard index.filling[name] == nil else { return nil }
            // The file this fill replaces (same name) goes when it is installed; it is not counted twice.
            let replaced = index.entries[name]?.fileBytes ?? 0
            guard index.reservedBytes <= maxBytes - fileBytes else { return nil }
            let evicted = index.evict(toFit: fileBytes - replaced, keeping: name)
            guard index.totalBytes - replaced + index.reservedBytes <= maxBytes - fileBytes else { return (nil, evicted) }
            index.reservedBytes += fileBytes
            index.nextTemp &+= 1
            return (store.path(name + ".tmp.\(ProcessInfo.processInfo.processIdentifier).\(index.nextTemp)"), evicted)
        }
        guard let reserved else { return nil }
        store.deleteFiles(reserved.evicted)
        guard let tempPath = reserved.tempPath else { return nil }
        // The body must start right after the header: a handle that cannot be put at the end of
        // the header would write the body over it, so such a fill is not started.
        let handle: FileHandle
        do {
            guard FileManager.default.createFile(atPath: tempPath, contents: Data(header)) else {
                throw CocoaError(.fileWriteUnknown)
            }
            guard let opened = FileHandle(forWritingAtPath: tempPath) else { throw CocoaError(.fileWriteUnknown) }
            handle = opened
            guard try handle.seekToEnd() == UInt64(header.count) else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(atPath: tempPath)
            store.index.withLock { $0.reservedBytes -= fileBytes }
            store.errors.report("create", error)
            return nil
        }
        let fill = DiskCacheFill(fills: self, entry: entry, fileName: name, tempPath: tempPath, bodyOffset: header.count, handle: handle)
        let started = store.index.withLock { index -> Bool in
            guard index.filling[name] == nil else { return false }
            index.filling[name] = fill
            return true
        }
        guard started else {
            // Another fill of the same file began meanwhile; this one gives its reservation back.
            try? handle.close()
            try? FileManager.default.removeItem(atPath: tempPath)
            store.index.withLock { $0.reservedBytes -= fileBytes }
            return nil
        }
        return fill
    }

    /// Writes a fill's `piece` at body offset `offset` of its temp file (see `simulatedFullAfter`).
    func write(_ piece: [UInt8], to handle: FileHandle, at offset: Int) throws {
        guard piece.count <= simulatedFullAfter.load(ordering: .relaxed) - offset else {
            throw POSIXError(.ENOSPC)
        }
        try handle.write(contentsOf: piece)
    }

    /// Puts a complete fill in place (rename over any older file of the same name), drops what it makes
    /// stale, and evicts down to the budget. Called by the fill once it checked the byte count. The index
    /// lock is not held across the rename or any delete (the loop thread takes it for every hit): while
    /// the file moves, the fill still stands for it, so no request reads the old entry or the new name.
    func install(_ fill: DiskCacheFill) -> Bool {
        let destination = store.path(fill.fileName)
        let files = FileManager.default
        _ = store.index.withLock { $0.discard(fill.fileName) }
        var moved = true
        do {
            try? files.removeItem(atPath: destination)
            try files.moveItem(atPath: fill.tempPath, toPath: destination)
        } catch {
            moved = false
            try? files.removeItem(atPath: fill.tempPath)
            store.errors.report("rename", error)
        }
        let doomed: [String] = store.index.withLock { index in
            index.endFill(fill)
            guard moved else { return [] }
            index.tick &+= 1
            let fileBytes = fill.bodyOffset + fill.entry.length
            index.insert(fill.fileName, DiskCacheIndex.Record(entry: fill.entry, bodyOffset: fill.bodyOffset, fileBytes: fileBytes, lastUse: index.tick))
            return index.dropSuperseded(by: fill.entry) + index.evict(keeping: fill.fileName)
        }
        store.deleteFiles(doomed)
        return moved
    }

    /// Forgets a fill that will not complete and deletes its temp file.
    func abandon(_ fill: DiskCacheFill) {
        store.index.withLock { $0.endFill(fill) }
        try? FileManager.default.removeItem(atPath: fill.tempPath)
    }

    /// Counts and logs a disk error met by a fill.
    func report(_ operation: String, _ error: any Error) {
        store.errors.report(operation, error)
    }
}
