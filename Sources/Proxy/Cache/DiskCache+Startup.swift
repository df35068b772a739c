import Foundation

extension DiskCache {
    /// Rebuilds the index from the directory: every `*.entry` file whose header parses, whose key hashes
    /// to its name and whose size is header plus declared length becomes an entry, ordered by
    /// modification time; anything else of ours (torn entries, temp files of fills that never finished)
    /// is deleted. Files the cache did not write are left alone.
    func rebuildIndex() {
        let files = FileManager.default
        let names = (try? files.contentsOfDirectory(atPath: directory)) ?? []
        var found: [(name: String, indexed: Indexed, modified: Date)] = []
        for name in names {
            let full = path(name)
            if name.contains(DiskCacheEntry.fileSuffix + ".tmp.") {
                try? files.removeItem(atPath: full)
                continue
            }
            guard name.hasSuffix(DiskCacheEntry.fileSuffix) else { continue }
            guard let (indexed, modified) = Self.validate(full, name: name) else {
                try? files.removeItem(atPath: full)
                continue
            }
            found.append((name, indexed, modified))
        }
        found.sort { $0.modified < $1.modified }
        state.withLock { state in
            for item in found {
                state.tick &+= 1
                var indexed = item.indexed
                indexed.lastUse = state.tick
                state.entries[item.name] = indexed
                state.totalBytes += indexed.fileBytes
            }
            // The budget may have shrunk since the entries were written.
            evict(&state)
        }
    }

    /// An entry file's index record and modification time, or nil when it is not a whole entry.
    static func validate(_ path: String, name: String) -> (Indexed, Date)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              (attributes[.type] as? FileAttributeType) == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.intValue,
              let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: DiskCacheEntry.maxHeaderBytes),
              let (entry, bodyOffset) = DiskCacheEntry.decodeHeader(Array(head)),
              DiskCacheEntry.fileName(forKey: entry.key) == name,
              bodyOffset + entry.length == size else { return nil }
        let modified = attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
        return (Indexed(entry: entry, bodyOffset: bodyOffset, fileBytes: size, lastUse: 0), modified)
    }
}
