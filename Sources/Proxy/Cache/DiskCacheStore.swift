import Foundation
import Synchronization

/// The cache directory and the index of the files in it, shared by the parts of `DiskCache`: one
/// lock over the index (it is never held across a delete), file paths, deletes, and opening a stored
/// file or a running fill for reading.
final class DiskCacheStore: Sendable {
    /// The directory entries live in.
    let directory: String
    /// The most bytes all entries together may take.
    let maxBytes: Int
    let index: Mutex<DiskCacheIndex>
    /// Where disk errors are counted and logged.
    let errors: DiskCacheErrorLog

    init(directory: String, maxBytes: Int, logger: ProxyLogger?) {
        self.directory = directory
        self.maxBytes = max(0, maxBytes)
        self.index = Mutex(DiskCacheIndex(maxBytes: self.maxBytes))
        self.errors = DiskCacheErrorLog(directory: directory, logger: logger)
    }

    func path(_ fileName: String) -> String { directory + "/" + fileName }

    /// Opens a stored file for reading; a file that is gone or no longer has the size its header
    /// promises is dropped, not served.
    func openStored(_ name: String, _ found: DiskCacheIndex.Record) -> DiskCacheReader? {
        guard let handle = FileHandle(forReadingAtPath: path(name)) else {
            remove(name, ifEntry: found.entry)
            return nil
        }
        let size = (try? handle.seekToEnd()).flatMap { Int(exactly: $0) }
        guard size == found.fileBytes else {
            try? handle.close()
            remove(name, ifEntry: found.entry)
            return nil
        }
        return DiskCacheReader(entry: found.entry, bodyOffset: found.bodyOffset, handle: handle)
    }

    /// A reader of the temp file of the running fill of `name`, when `accept` takes that fill. Opened
    /// under the lock, so the file cannot be renamed away between finding the fill and opening it.
    func followFill(_ name: String, if accept: (DiskCacheFill) -> Bool) -> DiskCacheReader? {
        index.withLock { index in
            guard let fill = index.filling[name], accept(fill) else { return nil }
            return fill.makeReader()
        }
    }

    /// Drops an entry (and its file) if the index still holds that same entry.
    func remove(_ name: String, ifEntry entry: DiskCacheEntry) {
        if index.withLock({ $0.discard(name, ifEntry: entry) }) { deleteFiles([name]) }
    }

    /// Deletes stored files the index no longer holds, outside the index lock. A file of the same name
    /// stored again meanwhile may go with them: that costs a miss (its open fails and it is dropped),
    /// never wrong bytes.
    func deleteFiles(_ names: [String]) {
        for name in names {
            do {
                try FileManager.default.removeItem(atPath: path(name))
            } catch CocoaError.fileNoSuchFile {
                continue
            } catch {
                errors.report("delete", error)
            }
        }
    }
}
