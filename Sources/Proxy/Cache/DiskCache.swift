import Foundation
import HTTPServer
import Synchronization

/// Origin objects kept on disk for pass-through mounts, within a byte budget, evicting the least
/// recently used first. Holds complete objects (entries) and ranges the origin sent on their own
/// (pieces). A file exists under its name only once every byte its header declares has arrived:
/// fills go to a temp file that is renamed into place after the byte count is checked, so a failed,
/// cancelled or short transfer never becomes an entry or a piece. Safe to share across tasks.
final class DiskCache: Sendable {
    /// An entry or piece in the index.
    struct Indexed {
        var entry: DiskCacheEntry
        var bodyOffset: Int
        /// Header plus body: what the file costs against the budget.
        var fileBytes: Int
        var lastUse: UInt64
    }

    struct State {
        /// Entries and pieces by file name.
        var entries: [String: Indexed] = [:]
        /// File names of the pieces of each key.
        var piecesByKey: [String: Set<String>] = [:]
        var totalBytes = 0
        var tick: UInt64 = 0
        /// Fills in progress, by file name; requests for them read along instead of fetching again.
        var filling: [String: DiskCacheFill] = [:]
        /// Bytes the running fills have reserved against the budget (their whole declared files), so
        /// fills that start together cannot take the cache past `maxBytes` between them.
        var reservedBytes = 0
        var nextTemp = 0
        /// Files removed to stay under the budget since startup.
        var evictions = 0
        /// Descriptors of complete entries recently sent with sendfile, by file name, so a hit costs one
        /// fstat instead of open, fstat and close; at most `maxOpenFiles`, the first opened closed first.
        var openFiles: [String: HTTPFile] = [:]
        var openOrder: [String] = []
    }

    /// The most entry files kept open between hits.
    static let maxOpenFiles = 256

    /// The directory entries live in.
    let directory: String
    /// The most bytes all entries together may take.
    let maxBytes: Int
    let state = Mutex(State())

    /// A cache over `directory` (created if missing), rebuilt from the valid entries already there.
    /// Throws when the directory cannot be created.
    init(directory: String, maxBytes: Int, logger: ProxyLogger? = nil) throws {
        self.directory = directory
        self.maxBytes = max(0, maxBytes)
        self.logger = logger
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        rebuildIndex()
    }

    /// Requests answered and bytes served, and the size last read from the index, for `/metrics`.
    let figures = Mutex(DiskCacheMetrics())
    /// Where disk errors are reported (once per kind, at warn).
    let logger: ProxyLogger?
    /// The kinds of disk error already logged.
    let loggedErrors = Mutex(Set<String>())
    /// Test seam: a write that would take a fill's body past this many bytes fails as a full file
    /// system's does (ENOSPC). `Int.max`, the default, never.
    let simulatedFullAfter = Atomic<Int>(Int.max)

    /// Total bytes of the entries and pieces held.
    var totalBytes: Int { state.withLock { $0.totalBytes } }

    /// Number of files held: complete entries plus pieces.
    var count: Int { state.withLock { $0.entries.count } }

    /// Number of pieces (stored ranges) held.
    var pieceCount: Int { state.withLock { state in state.piecesByKey.values.reduce(0) { $0 + $1.count } } }

    /// Number of fills running.
    var fillsRunning: Int { state.withLock { $0.filling.count } }

    func path(_ fileName: String) -> String { directory + "/" + fileName }

    /// The entry for `key` opened for reading and marked as just used, or a reader following the fill
    /// that is storing it; nil when neither. A file that no longer has the size its header promises is
    /// dropped, not served.
    func open(key: String) -> DiskCacheReader? {
        let name = DiskCacheEntry.fileName(forKey: key)
        if let following = follow(name, key: key) { return following }
        guard let found = state.withLock({ $0.use(name, if: { $0.entry.key == key }) }) else { return nil }
        return openStored(name, found)
    }

    /// The body of the complete entry for `key` as a file region, for sendfile, marked as just used;
    /// nil when there is no such entry. A file that is gone or no longer has the size its header promises
    /// is dropped, not served. Pieces and running fills are not looked at.
    func openFile(key: String) -> (entry: DiskCacheEntry, region: HTTPFileRegion)? {
        let name = DiskCacheEntry.fileName(forKey: key)
        let found: (indexed: Indexed, held: HTTPFile?)? = state.withLock { state in
            guard state.filling[name] == nil,
                  let indexed = state.use(name, if: { $0.entry.key == key && $0.entry.piece == nil }) else { return nil }
            return (indexed, state.openFiles[name])
        }
        guard let (indexed, held) = found else { return nil }
        // A held descriptor is checked again each time: a file cut short under us is dropped, not sent.
        let file = held ?? (try? HTTPFile(path: path(name)))
        guard let file, file.currentSize() == indexed.fileBytes,
              let region = HTTPFileRegion(file: file, offset: indexed.bodyOffset, length: indexed.entry.length) else {
            remove(name, ifEntry: indexed.entry)
            return nil
        }
        if held == nil { hold(file, name: name, for: indexed.entry) }
        return (indexed.entry, region)
    }

    /// Keeps an entry file open for later hits while the index holds that same entry.
    private func hold(_ file: HTTPFile, name: String, for entry: DiskCacheEntry) {
        state.withLock { state in
            guard state.openFiles[name] == nil, let current = state.entries[name], current.entry == entry else { return }
            state.openFiles[name] = file
            state.openOrder.append(name)
            while state.openFiles.count > Self.maxOpenFiles, !state.openOrder.isEmpty {
                state.openFiles.removeValue(forKey: state.openOrder.removeFirst())
            }
            // Names of entries dropped since they were opened linger in the order; sweep them now and then.
            if state.openOrder.count > 2 * Self.maxOpenFiles {
                let open = state.openFiles
                state.openOrder.removeAll { open[$0] == nil }
            }
        }
    }

    /// Opens a stored file for reading; a file that is gone or no longer has the size its header
    /// promises is dropped, not served.
    func openStored(_ name: String, _ found: Indexed) -> DiskCacheReader? {
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

    /// A reader of the temp file of a running fill for `key`. Opened under the lock, so the file cannot
    /// be renamed away between finding the fill and opening it.
    private func follow(_ name: String, key: String) -> DiskCacheReader? {
        state.withLock { state in
            guard let fill = state.filling[name], fill.entry.key == key else { return nil }
            return fill.makeReader()
        }
    }

    /// Drops an entry (and its file) if the index still holds that same entry.
    func remove(_ name: String, ifEntry entry: DiskCacheEntry) {
        let dropped = state.withLock { state -> Bool in
            guard let indexed = state.entries[name], indexed.entry == entry else { return false }
            _ = state.discard(name)
            return true
        }
        if dropped { deleteFiles([name]) }
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
                reportDiskError("delete", error)
            }
        }
    }

    /// Removes least recently used entries and pieces until the total fits the budget, with `room`
    /// bytes more to spare; returns the names of the files to delete (the caller deletes them once the
    /// lock is released). Readers that already opened an evicted file keep reading it: the data stays
    /// until they close it. The reservations of running fills count against the budget.
    func evict(_ state: inout State, toFit room: Int = 0, keeping kept: String? = nil) -> [String] {
        var victims: [String] = []
        while state.totalBytes + state.reservedBytes + room > maxBytes {
            guard let victim = state.entries.lazy.filter({ $0.key != kept }).min(by: { $0.value.lastUse < $1.value.lastUse }) else { break }
            _ = state.discard(victim.key)
            state.evictions &+= 1
            victims.append(victim.key)
        }
        return victims
    }
}
extension DiskCache.State {
    /// The index record of `name` marked as just used (for LRU), when `accept` takes it; else nil.
    mutating func use(_ name: String, if accept: (DiskCache.Indexed) -> Bool) -> DiskCache.Indexed? {
        guard var indexed = entries[name], accept(indexed) else { return nil }
        tick &+= 1
        indexed.lastUse = tick
        entries[name] = indexed
        return indexed
    }

    /// Adds a file to the index and the byte total.
    mutating func insert(_ name: String, _ indexed: DiskCache.Indexed) {
        _ = discard(name)
        entries[name] = indexed
        totalBytes += indexed.fileBytes
        if indexed.entry.piece != nil { piecesByKey[indexed.entry.key, default: []].insert(name) }
    }

    /// Takes a file out of the index and the byte total (the caller deletes it); what it held, if anything.
    mutating func discard(_ name: String) -> DiskCache.Indexed? {
        // Its descriptor closes once no response still sends from it.
        openFiles.removeValue(forKey: name)
        guard let old = entries.removeValue(forKey: name) else { return nil }
        totalBytes -= old.fileBytes
        if old.entry.piece != nil {
            piecesByKey[old.entry.key]?.remove(name)
            if piecesByKey[old.entry.key]?.isEmpty == true { piecesByKey.removeValue(forKey: old.entry.key) }
        }
        return old
    }
}
