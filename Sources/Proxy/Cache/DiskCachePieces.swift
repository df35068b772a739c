extension DiskCache {
    /// The pieces stored for `key`, most recently used first (index records; open one with `openPiece`).
    func pieces(forKey key: String) -> [(name: String, indexed: Indexed)] {
        state.withLock { state in
            let names = state.piecesByKey[key] ?? []
            return names.compactMap { name in state.entries[name].map { (name, $0) } }
                .filter { $0.indexed.entry.key == key }
                .sorted { $0.indexed.lastUse > $1.indexed.lastUse }
        }
    }

    /// A stored piece opened for reading and marked as just used; nil (and dropped) when its file is
    /// gone or no longer the size its header promises, or it was replaced meanwhile.
    func openPiece(_ name: String, _ indexed: Indexed) -> DiskCacheReader? {
        guard let current = state.withLock({ $0.use(name, if: { $0.entry == indexed.entry }) }) else { return nil }
        return openStored(name, current)
    }

    /// A reader following a running fill of the piece of `version`'s object that starts at `offset` and
    /// will hold at least `count` bytes of the same version, so requests for one missing range share its
    /// download; nil when none runs. Opened under the lock, so the file cannot be renamed away first.
    func followPiece(of version: DiskCacheEntry, offset: Int, count: Int) -> DiskCacheReader? {
        let name = DiskCacheEntry.pieceFileName(forKey: version.key, offset: offset)
        return state.withLock { state in
            guard let fill = state.filling[name], fill.entry.isSameVersion(as: version), fill.entry.length >= count else { return nil }
            return fill.makeReader()
        }
    }

    /// Drops every piece of `key` and its complete entry: the origin said the object changed.
    func dropObject(key: String) {
        let dropped = state.withLock { state -> [String] in
            var names = Array(state.piecesByKey[key] ?? [])
            names.append(DiskCacheEntry.fileName(forKey: key))
            return names.filter { name in
                guard state.entries[name]?.entry.key == key else { return false }
                _ = state.discard(name)
                return true
            }
        }
        deleteFiles(dropped)
    }

    /// After `entry` was stored: a complete object makes the pieces of its key redundant; a piece says
    /// which version the origin has now, so pieces and a complete entry of another version are stale.
    /// Pieces without a validator cannot be told apart by version, so only the newest is kept. Returns
    /// the names of the files to delete once the lock is released.
    func dropSuperseded(by entry: DiskCacheEntry, in state: inout State) -> [String] {
        var stale: [String] = []
        for name in state.piecesByKey[entry.key] ?? [] where name != entry.fileName {
            guard let other = state.entries[name]?.entry else { continue }
            if entry.piece == nil || !entry.isSameVersion(as: other) { stale.append(name) }
        }
        let complete = DiskCacheEntry.fileName(forKey: entry.key)
        if entry.piece != nil, let other = state.entries[complete]?.entry, other.key == entry.key,
           other.validator != nil || entry.validator != nil, !entry.isSameVersion(as: other) {
            stale.append(complete)
        }
        for name in stale { _ = state.discard(name) }
        return stale
    }
}
