/// The ranges of objects stored on their own (pieces): finding them, opening them, following a
/// running piece fill, and dropping an object whose version changed.
struct DiskCachePieces: Sendable {
    let store: DiskCacheStore

    /// The pieces stored for `key`, most recently used first (index records; open one with `open`).
    func stored(forKey key: String) -> [(name: String, indexed: DiskCacheIndex.Record)] {
        store.index.withLock { index in
            let names = index.piecesByKey[key] ?? []
            return names.compactMap { name in index.entries[name].map { (name, $0) } }
                .filter { $0.indexed.entry.key == key }
                .sorted { $0.indexed.lastUse > $1.indexed.lastUse }
        }
    }

    /// A stored piece opened for reading and marked as just used; nil (and dropped) when its file is
    /// gone or no longer the size its header promises, or it was replaced meanwhile.
    func open(_ name: String, _ indexed: DiskCacheIndex.Record) -> DiskCacheReader? {
        guard let current = store.index.withLock({ $0.use(name, if: { $0.entry == indexed.entry }) }) else { return nil }
        return store.openStored(name, current)
    }

    /// A reader following a running fill of the piece of `version`'s object that starts at `offset` and
    /// will hold at least `count` bytes of the same version, so requests for one missing range share its
    /// download; nil when none runs.
    func follow(of version: DiskCacheEntry, offset: Int, count: Int) -> DiskCacheReader? {
        let name = DiskCacheEntry.pieceFileName(forKey: version.key, offset: offset)
        return store.followFill(name) { $0.entry.isSameVersion(as: version) && $0.entry.length >= count }
    }

    /// Drops every piece of `key` and its complete entry: the origin said the object changed.
    func dropObject(key: String) {
        let dropped = store.index.withLock { index -> [String] in
            var names = Array(index.piecesByKey[key] ?? [])
            names.append(DiskCacheEntry.fileName(forKey: key))
            return names.filter { name in
                guard index.entries[name]?.entry.key == key else { return false }
                _ = index.discard(name)
                return true
            }
        }
        store.deleteFiles(dropped)
    }
}
