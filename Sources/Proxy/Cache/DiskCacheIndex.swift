import HTTPServer

/// What the disk cache holds, as one value kept under one lock: entries and pieces by file name
/// with their least-recently-used order, the running fills and what they reserved against the byte
/// budget, and the descriptors held open between hits. Changing it never touches the disk: what it
/// drops comes back as file names for the caller to delete once the lock is released.
struct DiskCacheIndex {
    /// An entry or piece in the index.
    struct Record {
        var entry: DiskCacheEntry
        var bodyOffset: Int
        /// Header plus body: what the file costs against the budget.
        var fileBytes: Int
        var lastUse: UInt64
    }

    /// The most entry files kept open between hits.
    static let maxOpenFiles = 256

    /// The most bytes all entries together may take.
    let maxBytes: Int
    /// Entries and pieces by file name.
    var entries: [String: Record] = [:]
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

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// Number of pieces (stored ranges) held.
    var pieceCount: Int { piecesByKey.values.reduce(0) { $0 + $1.count } }

    /// The index record of `name` marked as just used (for LRU), when `accept` takes it; else nil.
    mutating func use(_ name: String, if accept: (Record) -> Bool) -> Record? {
        guard var record = entries[name], accept(record) else { return nil }
        tick &+= 1
        record.lastUse = tick
        entries[name] = record
        return record
    }

    /// Adds a file to the index and the byte total.
    mutating func insert(_ name: String, _ record: Record) {
        _ = discard(name)
        entries[name] = record
        totalBytes += record.fileBytes
        if record.entry.piece != nil { piecesByKey[record.entry.key, default: []].insert(name) }
    }

    /// Takes a file out of the index and the byte total (the caller deletes it); what it held, if anything.
    mutating func discard(_ name: String) -> Record? {
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

    /// Takes `name` out if it still holds that same entry; whether it did (the caller deletes the file).
    mutating func discard(_ name: String, ifEntry entry: DiskCacheEntry) -> Bool {
        guard let record = entries[name], record.entry == entry else { return false }
        _ = discard(name)
        return true
    }

    /// Removes least recently used entries and pieces until the total fits the budget, with `room`
    /// bytes more to spare; returns the names of the files to delete. Readers that already opened an
    /// evicted file keep reading it: the data stays until they close it. The reservations of running
    /// fills count against the budget.
    mutating func evict(toFit room: Int = 0, keeping kept: String? = nil) -> [String] {
        var victims: [String] = []
        while totalBytes + reservedBytes + room > maxBytes {
            guard let victim = entries.lazy.filter({ $0.key != kept }).min(by: { $0.value.lastUse < $1.value.lastUse }) else { break }
            _ = discard(victim.key)
            evictions &+= 1
            victims.append(victim.key)
        }
        return victims
    }

    /// Keeps an entry file open for later hits while the index holds that same entry.
    mutating func hold(_ file: HTTPFile, name: String, for entry: DiskCacheEntry) {
        guard openFiles[name] == nil, let current = entries[name], current.entry == entry else { return }
        openFiles[name] = file
        openOrder.append(name)
        while openFiles.count > Self.maxOpenFiles, !openOrder.isEmpty {
            openFiles.removeValue(forKey: openOrder.removeFirst())
        }
        // Names of entries dropped since they were opened linger in the order; sweep them now and then.
        if openOrder.count > 2 * Self.maxOpenFiles {
            let open = openFiles
            openOrder.removeAll { open[$0] == nil }
        }
    }

    /// Takes a fill out of the running ones and gives back its reservation (once, however it ended).
    mutating func endFill(_ fill: DiskCacheFill) {
        guard filling[fill.fileName] === fill else { return }
        filling.removeValue(forKey: fill.fileName)
        reservedBytes -= fill.reservedBytes
    }

    /// After `entry` was stored: a complete object makes the pieces of its key redundant; a piece says
    /// which version the origin has now, so pieces and a complete entry of another version are stale.
    /// Pieces without a validator cannot be told apart by version, so only the newest is kept. Returns
    /// the names of the files to delete.
    mutating func dropSuperseded(by entry: DiskCacheEntry) -> [String] {
        var stale: [String] = []
        for name in piecesByKey[entry.key] ?? [] where name != entry.fileName {
            guard let other = entries[name]?.entry else { continue }
            if entry.piece == nil || !entry.isSameVersion(as: other) { stale.append(name) }
        }
        let complete = DiskCacheEntry.fileName(forKey: entry.key)
        if entry.piece != nil, let other = entries[complete]?.entry, other.key == entry.key,
           other.validator != nil || entry.validator != nil, !entry.isSameVersion(as: other) {
            stale.append(complete)
        }
        for name in stale { _ = discard(name) }
        return stale
    }
}
