import Foundation
import Synchronization

/// Complete origin objects kept on disk for pass-through mounts, within a byte budget, evicting the
/// least recently used first. An entry exists only once every byte the origin declared has arrived:
/// fills go to a temp file that is renamed into place after the byte count is checked, so a failed,
/// cancelled or short transfer never becomes an entry. Safe to share across tasks.
final class DiskCache: Sendable {
    /// An entry in the index.
    struct Indexed {
        var entry: DiskCacheEntry
        var bodyOffset: Int
        /// Header plus body: what the entry costs against the budget.
        var fileBytes: Int
        var lastUse: UInt64
    }

    struct State {
        /// By file name.
        var entries: [String: Indexed] = [:]
        var totalBytes = 0
        var tick: UInt64 = 0
        /// Fills in progress, by file name; requests for them read along instead of fetching again.
        var filling: [String: DiskCacheFill] = [:]
        var nextTemp = 0
    }

    /// The directory entries live in.
    let directory: String
    /// The most bytes all entries together may take.
    let maxBytes: Int
    let state = Mutex(State())

    /// A cache over `directory` (created if missing), rebuilt from the valid entries already there.
    /// Throws when the directory cannot be created.
    init(directory: String, maxBytes: Int) throws {
        self.directory = directory
        self.maxBytes = max(0, maxBytes)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        rebuildIndex()
    }

    /// Total bytes of the entries held.
    var totalBytes: Int { state.withLock { $0.totalBytes } }

    /// Number of entries held.
    var count: Int { state.withLock { $0.entries.count } }

    /// Number of fills running.
    var fillsRunning: Int { state.withLock { $0.filling.count } }

    func path(_ fileName: String) -> String { directory + "/" + fileName }

    /// The entry for `key` opened for reading and marked as just used, or a reader following the fill
    /// that is storing it; nil when neither. A file that no longer has the size its header promises is
    /// dropped, not served.
    func open(key: String) -> DiskCacheReader? {
        let name = DiskCacheEntry.fileName(forKey: key)
        if let following = follow(name, key: key) { return following }
        let found: Indexed? = state.withLock { state in
            guard var indexed = state.entries[name], indexed.entry.key == key else { return nil }
            state.tick &+= 1
            indexed.lastUse = state.tick
            state.entries[name] = indexed
            return indexed
        }
        guard let found else { return nil }
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

    /// Starts storing `entry`; nil when it cannot fit the budget, its header is too long, a fill for
    /// the same key is already running, or the temp file cannot be made.
    func beginFill(_ entry: DiskCacheEntry) -> DiskCacheFill? {
        let header = entry.encodedHeader()
        guard header.count <= DiskCacheEntry.maxHeaderBytes, entry.length >= 0,
              entry.length <= maxBytes - header.count else { return nil }
        let name = DiskCacheEntry.fileName(forKey: entry.key)
        return state.withLock { state -> DiskCacheFill? in
            guard state.filling[name] == nil else { return nil }
            state.nextTemp &+= 1
            let tempPath = path(name + ".tmp.\(ProcessInfo.processInfo.processIdentifier).\(state.nextTemp)")
            // The body must start right after the header: a handle that cannot be put at the end of
            // the header would write the body over it, so such a fill is not started.
            guard FileManager.default.createFile(atPath: tempPath, contents: Data(header)),
                  let handle = FileHandle(forWritingAtPath: tempPath),
                  let end = try? handle.seekToEnd(), end == UInt64(header.count) else {
                try? FileManager.default.removeItem(atPath: tempPath)
                return nil
            }
            let fill = DiskCacheFill(cache: self, entry: entry, fileName: name, tempPath: tempPath, bodyOffset: header.count, handle: handle)
            state.filling[name] = fill
            return fill
        }
    }

    /// A reader of the temp file of a running fill for `key`. Opened under the lock, so the file cannot
    /// be renamed away between finding the fill and opening it.
    private func follow(_ name: String, key: String) -> DiskCacheReader? {
        state.withLock { state in
            guard let fill = state.filling[name], fill.entry.key == key,
                  let handle = FileHandle(forReadingAtPath: fill.tempPath) else { return nil }
            return DiskCacheReader(entry: fill.entry, bodyOffset: fill.bodyOffset, handle: handle, fill: fill)
        }
    }

    /// Puts a complete fill in place (rename over any older file of the same name) and evicts down to
    /// the budget. Called by the fill once it checked the byte count.
    func install(_ fill: DiskCacheFill) -> Bool {
        let destination = path(fill.fileName)
        let files = FileManager.default
        return state.withLock { state in
            state.filling.removeValue(forKey: fill.fileName)
            if let old = state.entries.removeValue(forKey: fill.fileName) {
                state.totalBytes -= old.fileBytes
            }
            try? files.removeItem(atPath: destination)
            do {
                try files.moveItem(atPath: fill.tempPath, toPath: destination)
            } catch {
                try? files.removeItem(atPath: fill.tempPath)
                return false
            }
            state.tick &+= 1
            let fileBytes = fill.bodyOffset + fill.entry.length
            state.entries[fill.fileName] = Indexed(entry: fill.entry, bodyOffset: fill.bodyOffset, fileBytes: fileBytes, lastUse: state.tick)
            state.totalBytes += fileBytes
            evict(&state, keeping: fill.fileName)
            return true
        }
    }

    /// Forgets a fill that will not complete and deletes its temp file.
    func abandon(_ fill: DiskCacheFill) {
        state.withLock { _ = $0.filling.removeValue(forKey: fill.fileName) }
        try? FileManager.default.removeItem(atPath: fill.tempPath)
    }

    /// Drops an entry (and its file) if the index still holds that same entry.
    func remove(_ name: String, ifEntry entry: DiskCacheEntry) {
        state.withLock { state in
            guard let indexed = state.entries[name], indexed.entry == entry else { return }
            state.entries.removeValue(forKey: name)
            state.totalBytes -= indexed.fileBytes
            try? FileManager.default.removeItem(atPath: path(name))
        }
    }

    /// Removes least recently used entries until the total fits the budget. Readers that already
    /// opened an evicted file keep reading it: the data stays until they close it.
    func evict(_ state: inout State, keeping kept: String? = nil) {
        while state.totalBytes > maxBytes {
            guard let victim = state.entries.lazy.filter({ $0.key != kept }).min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
            state.entries.removeValue(forKey: victim.key)
            state.totalBytes -= victim.value.fileBytes
            try? FileManager.default.removeItem(atPath: path(victim.key))
        }
    }
}
