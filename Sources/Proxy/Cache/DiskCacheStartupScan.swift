import Foundation

extension DiskCache {
    /// Rebuilds the index from the directory: every `*.entry` or `*.piece` file whose header parses,
    /// whose key and offset give its name and whose size is header plus declared length is indexed,
    /// ordered by modification time; anything else of ours (torn files, temp files of fills that never
    /// finished) is deleted. Files the cache did not write are left alone.
    func rebuildIndex() {
        let files = FileManager.default
        let names = (try? files.contentsOfDirectory(atPath: directory)) ?? []
        var found: [(name: String, indexed: Indexed, modified: Date)] = []
        for name in names {
            let full = path(name)
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
        let evicted = state.withLock { state -> [String] in
            for item in found {
                state.tick &+= 1
                var indexed = item.indexed
                indexed.lastUse = state.tick
                state.insert(item.name, indexed)
            }
            // The budget may have shrunk since the files were written.
            return evict(&state)
        }
        deleteFiles(evicted)
    }

    /// A stored file's index record and modification time, or nil when it is not whole.
    static func validate(_ path: String, name: String) -> (Indexed, Date)? {
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
        return (Indexed(entry: entry, bodyOffset: bodyOffset, fileBytes: size, lastUse: 0), modified)
    }
}
