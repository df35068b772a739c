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

    /// Starts storing `entry` (a complete object or a piece); nil when it cannot fit the budget, its
    /// header is too long, a fill for the same file is already running, or the temp file cannot be made.
    /// Its whole file is reserved against the budget first, least recently used files evicted to make
    /// room; room the running fills have reserved is not given away, so a fill that would not fit
    /// beside them is not started (the response then streams from the origin alone).
    func beginFill(_ entry: DiskCacheEntry) -> DiskCacheFill? {
        let header = entry.encodedHeader()
        guard header.count <= DiskCacheEntry.maxHeaderBytes, entry.length >= 0,
              entry.length <= maxBytes - header.count else { return nil }
        let name = entry.fileName
        let fileBytes = header.count + entry.length
        let reserved: (tempPath: String?, evicted: [String])? = state.withLock { state in
            guard state.filling[name] == nil else { return nil }
            // The file this fill replaces (same name) goes when it is installed; it is not counted twice.
            let replaced = state.entries[name]?.fileBytes ?? 0
            guard state.reservedBytes <= maxBytes - fileBytes else { return nil }
            let evicted = evict(&state, toFit: fileBytes - replaced, keeping: name)
            guard state.totalBytes - replaced + state.reservedBytes <= maxBytes - fileBytes else { return (nil, evicted) }
            state.reservedBytes += fileBytes
            state.nextTemp &+= 1
            return (path(name + ".tmp.\(ProcessInfo.processInfo.processIdentifier).\(state.nextTemp)"), evicted)
        }
        guard let reserved else { return nil }
        deleteFiles(reserved.evicted)
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
            state.withLock { $0.reservedBytes -= fileBytes }
            reportDiskError("create", error)
            return nil
        }
        let fill = DiskCacheFill(cache: self, entry: entry, fileName: name, tempPath: tempPath, bodyOffset: header.count, handle: handle)
        let started = state.withLock { state -> Bool in
            guard state.filling[name] == nil else { return false }
            state.filling[name] = fill
            return true
        }
        guard started else {
            // Another fill of the same file began meanwhile; this one gives its reservation back.
            try? handle.close()
            try? FileManager.default.removeItem(atPath: tempPath)
            state.withLock { $0.reservedBytes -= fileBytes }
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

    /// Counts a disk error in `/metrics` and logs it at warn the first time its kind (operation and
    /// error) is seen, so a full disk is one line, not one per request.
    func reportDiskError(_ operation: String, _ error: any Error) {
        let nsError = error as NSError
        let kind = operation + " " + nsError.domain + " " + String(nsError.code)
        figures.withLock { $0.errors[operation, default: 0] += 1 }
        let first = loggedErrors.withLock { $0.insert(kind).inserted }
        guard first else { return }
        logger?.log(.warn, "disk cache error: object not cached, served from the origin", [
            ("operation", operation), ("directory", directory), ("error", Self.describe(error)),
        ])
    }

    /// An error in words, without the file's name (that is in the directory logged beside it).
    static func describe(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }

    /// A reader of the temp file of a running fill for `key`. Opened under the lock, so the file cannot
    /// be renamed away between finding the fill and opening it.
    private func follow(_ name: String, key: String) -> DiskCacheReader? {
        state.withLock { state in
            guard let fill = state.filling[name], fill.entry.key == key else { return nil }
            return fill.makeReader()
        }
    }

    /// Puts a complete fill in place (rename over any older file of the same name), drops what it makes
    /// stale, and evicts down to the budget. Called by the fill once it checked the byte count. The index
    /// lock is not held across the rename or any delete (the loop thread takes it for every hit): while
    /// the file moves, the fill still stands for it, so no request reads the old entry or the new name.
    func install(_ fill: DiskCacheFill) -> Bool {
        let destination = path(fill.fileName)
        let files = FileManager.default
        _ = state.withLock { $0.discard(fill.fileName) }
        var moved = true
        do {
            try? files.removeItem(atPath: destination)
            try files.moveItem(atPath: fill.tempPath, toPath: destination)
        } catch {
            moved = false
            try? files.removeItem(atPath: fill.tempPath)
            reportDiskError("rename", error)
        }
        let doomed: [String] = state.withLock { state in
            endFill(fill, in: &state)
            guard moved else { return [] }
            state.tick &+= 1
            let fileBytes = fill.bodyOffset + fill.entry.length
            state.insert(fill.fileName, Indexed(entry: fill.entry, bodyOffset: fill.bodyOffset, fileBytes: fileBytes, lastUse: state.tick))
            return dropSuperseded(by: fill.entry, in: &state) + evict(&state, keeping: fill.fileName)
        }
        deleteFiles(doomed)
        return moved
    }

    /// Takes a fill out of the running ones and gives back its reservation (once, however it ended).
    func endFill(_ fill: DiskCacheFill, in state: inout State) {
        guard state.filling[fill.fileName] === fill else { return }
        state.filling.removeValue(forKey: fill.fileName)
        state.reservedBytes -= fill.reservedBytes
    }

    /// Forgets a fill that will not complete and deletes its temp file.
    func abandon(_ fill: DiskCacheFill) {
        state.withLock { endFill(fill, in: &$0) }
        try? FileManager.default.removeItem(atPath: fill.tempPath)
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
