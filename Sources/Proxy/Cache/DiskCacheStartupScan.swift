import Foundation

/// Rebuilds the index from the directory at startup: every `*.entry` or `*.piece` file whose header
/// parses, whose key and offset give its name and whose size is header plus declared length is
/// indexed, ordered by modification time; anything else of ours (torn files, temp files of fills that
/// never finished) is deleted. Files the cache did not write are left alone.
struct DiskCacheStartupScan {
    let store: DiskCacheStore

    /// Indexes what is whole, deletes what is torn, then evicts down to the budget (it may have
    /// shrunk since the files were written).
    func run() {
        let files = FileManager.default
        let names = (try? files.contentsOfDirectory(atPath: store.directory)) ?? []
        var found: [(name: String, indexed: DiskCacheIndex.Record, modified: Date)] = []
        for name in names {
            let full = store.path(name)
            if name.contains(DiskCacheEntry.fileSuffix + ".tmp.") || name.contains(DiskCacheEntry.pieceSuffix + ".tmp.") {
                try? files.removeItem(atPath: full)
                continue
            }
            guard name.hasSuffix(DiskCacheEntry.fileSuffix) || name.hasSuffix(DiskCacheEntry.pieceSuffix) else { continue }
            guard let (indexed, modified) = Self.validate(full, name: name) else {
                try? files.removeItem(atPath: full)
                continue
            }
            found.append((name, indexed, modified))
        }
        found.sort { $0.modified < $1.modified }
        let evicted = store.index.withLock { index -> [String] in
            for item in found {
                index.tick &+= 1
                var indexed = item.indexed
                indexed.lastUse = index.tick
                index.insert(item.name, indexed)
            }
            return index.evict()
        }
        store.deleteFiles(evicted)
    }

    /// A stored file's index record and modification time, or nil when it is not whole.
    static func validate(_ path: String, name: String) -> (DiskCacheIndex.Record, Date)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              (attributes[.type] as? FileAttributeType) == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.intValue,
              let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: DiskCacheEntry.maxHeaderBytes),
              let (entry, bodyOffset) = DiskCacheEntry.decodeHeader(Array(head)),
              entry.fileName == name,
              bodyOffset + entry.length == size else { return nil }
        let modified = attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
        return (DiskCacheIndex.Record(entry: entry, bodyOffset: bodyOffset, fileBytes: size, lastUse: 0), modified)
    }
}
