import Foundation
import HTTPServer

/// Origin objects kept on disk for pass-through mounts, within a byte budget, evicting the least
/// recently used first. Holds complete objects (entries) and ranges the origin sent on their own
/// (pieces). A file exists under its name only once every byte its header declares has arrived:
/// fills go to a temp file that is renamed into place after the byte count is checked, so a failed,
/// cancelled or short transfer never becomes an entry or a piece. Safe to share across tasks.
///
/// Its parts share one `DiskCacheStore` (the directory and the index under its lock): `fills` copy
/// objects in, `pieces` serve stored ranges, `figures` count for `/metrics`; hits on complete
/// entries are answered here.
final class DiskCache: Sendable {
    /// The directory and the index of its files.
    let store: DiskCacheStore
    /// Fills running and starting.
    let fills: DiskCacheFills
    /// Stored ranges.
    let pieces: DiskCachePieces
    /// Requests answered and bytes served, and the size, for `/metrics`.
    let figures: DiskCacheFigures

    /// A cache over `directory` (created if missing), rebuilt from the valid entries already there.
    /// Throws when the directory cannot be created.
    init(directory: String, maxBytes: Int, logger: ProxyLogger? = nil) throws {
        store = DiskCacheStore(directory: directory, maxBytes: maxBytes, logger: logger)
        fills = DiskCacheFills(store: store)
        pieces = DiskCachePieces(store: store)
        figures = DiskCacheFigures(store: store)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        DiskCacheStartupScan(store: store).run()
    }

    /// The directory entries live in.
    var directory: String { store.directory }

    /// The most bytes all entries together may take.
    var maxBytes: Int { store.maxBytes }

    /// Total bytes of the entries and pieces held.
    var totalBytes: Int { store.index.withLock { $0.totalBytes } }

    /// Number of files held: complete entries plus pieces.
    var count: Int { store.index.withLock { $0.entries.count } }

    /// Number of pieces (stored ranges) held.
    var pieceCount: Int { store.index.withLock { $0.pieceCount } }

    /// Number of fills running.
    var fillsRunning: Int { store.index.withLock { $0.filling.count } }

    /// Counts one request's outcome.
    func record(_ update: (inout DiskCacheCounters) -> Void) { figures.record(update) }

    /// The current figures for `/metrics`.
    var metrics: DiskCacheMetrics { figures.current }

    /// The entry for `key` opened for reading and marked as just used, or a reader following the fill
    /// that is storing it; nil when neither. A file that no longer has the size its header promises is
    /// dropped, not served.
    func open(key: String) -> DiskCacheReader? {
        let name = DiskCacheEntry.fileName(forKey: key)
        if let following = store.followFill(name, if: { $0.entry.key == key }) { return following }
        guard let found = store.index.withLock({ $0.use(name, if: { $0.entry.key == key }) }) else { return nil }
        return store.openStored(name, found)
    }

    /// The body of the complete entry for `key` as a file region, for sendfile, marked as just used;
    /// nil when there is no such entry. A file that is gone or no longer has the size its header promises
    /// is dropped, not served. Pieces and running fills are not looked at.
    func openFile(key: String) -> (entry: DiskCacheEntry, region: HTTPFileRegion)? {
        let name = DiskCacheEntry.fileName(forKey: key)
        let found: (indexed: DiskCacheIndex.Record, held: HTTPFile?)? = store.index.withLock { index in
            guard index.filling[name] == nil,
                  let indexed = index.use(name, if: { $0.entry.key == key && $0.entry.piece == nil }) else { return nil }
            return (indexed, index.openFiles[name])
        }
        guard let (indexed, held) = found else { return nil }
        // A held descriptor is checked again each time: a file cut short under us is dropped, not sent.
        let file = held ?? (try? HTTPFile(path: store.path(name)))
        guard let file, file.currentSize() == indexed.fileBytes,
              let region = HTTPFileRegion(file: file, offset: indexed.bodyOffset, length: indexed.entry.length) else {
            store.remove(name, ifEntry: indexed.entry)
            return nil
        }
        if held == nil { store.index.withLock { $0.hold(file, name: name, for: indexed.entry) } }
        return (indexed.entry, region)
    }
}
