import Foundation

extension DiskCache {
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
}
