@testable import Proxy
import Testing

/// The disk cache's index as a value: least-recently-used eviction under the budget with the running
/// fills' reservations counted, and what a stored piece or object makes stale. No files involved.
@Suite struct DiskCacheIndexTests {
    static func record(_ key: String, bytes: Int, etag: String? = nil, piece: DiskCachePlacement? = nil) -> (String, DiskCacheIndex.Record) {
        let fields = etag.map { [(name: "ETag", value: $0)] } ?? []
        let entry = DiskCacheEntry(key: key, length: bytes, fields: fields, piece: piece)
        return (entry.fileName, DiskCacheIndex.Record(entry: entry, bodyOffset: 0, fileBytes: bytes, lastUse: 0))
    }

    static func filled(maxBytes: Int, _ records: [(String, DiskCacheIndex.Record)]) -> DiskCacheIndex {
        var index = DiskCacheIndex(maxBytes: maxBytes)
        for (name, record) in records {
            index.tick &+= 1
            var used = record
            used.lastUse = index.tick
            index.insert(name, used)
        }
        return index
    }

    @Test func evictionRemovesTheLeastRecentlyUsedUntilTheTotalFits() {
        let (a, b, c) = (Self.record("a", bytes: 40), Self.record("b", bytes: 40), Self.record("c", bytes: 40))
        var index = Self.filled(maxBytes: 100, [a, b, c])
        _ = index.use(a.0, if: { _ in true })
        let evicted = index.evict()
        #expect(evicted == [b.0])
        #expect(index.totalBytes == 80)
        #expect(index.evictions == 1)
        #expect(Set(index.entries.keys) == [a.0, c.0])
    }

    @Test func runningFillsReservationsCountAgainstTheBudgetAndTheKeptFileIsSpared() {
        let (a, b) = (Self.record("a", bytes: 40), Self.record("b", bytes: 40))
        var index = Self.filled(maxBytes: 100, [a, b])
        index.reservedBytes = 30
        // 80 held + 30 reserved + 10 wanted: both files would have to go, but `a` is being replaced.
        let evicted = index.evict(toFit: 10, keeping: a.0)
        #expect(evicted == [b.0])
        #expect(index.entries.keys.contains(a.0))
        #expect(index.totalBytes == 40)
    }

    @Test func aFileIsDiscardedOnlyWhileItStillHoldsTheSameEntry() {
        let old = Self.record("a", bytes: 10, etag: "\"1\"")
        var index = Self.filled(maxBytes: 100, [old])
        let newer = Self.record("a", bytes: 20, etag: "\"2\"")
        index.insert(newer.0, newer.1)
        let droppedOld = index.discard(old.0, ifEntry: old.1.entry)
        #expect(!droppedOld)
        #expect(index.totalBytes == 20)
        let droppedNewer = index.discard(newer.0, ifEntry: newer.1.entry)
        #expect(droppedNewer)
        #expect(index.entries.isEmpty && index.totalBytes == 0)
    }

    @Test func aStoredCompleteObjectMakesThePiecesOfItsKeyStale() {
        let first = Self.record("a", bytes: 10, etag: "\"1\"", piece: DiskCachePlacement(offset: 0, objectLength: 100))
        let second = Self.record("a", bytes: 10, etag: "\"1\"", piece: DiskCachePlacement(offset: 50, objectLength: 100))
        let other = Self.record("b", bytes: 10, etag: "\"1\"", piece: DiskCachePlacement(offset: 0, objectLength: 100))
        let whole = Self.record("a", bytes: 100, etag: "\"1\"")
        var index = Self.filled(maxBytes: 1000, [first, second, other, whole])
        #expect(index.pieceCount == 3)
        let stale = index.dropSuperseded(by: whole.1.entry)
        #expect(Set(stale) == [first.0, second.0])
        #expect(index.pieceCount == 1)
        #expect(index.piecesByKey["a"] == nil)
    }

    @Test func aPieceOfANewVersionMakesOtherVersionsPiecesAndObjectStale() {
        let oldPiece = Self.record("a", bytes: 10, etag: "\"1\"", piece: DiskCachePlacement(offset: 0, objectLength: 100))
        let oldWhole = Self.record("a", bytes: 100, etag: "\"1\"")
        let samePiece = Self.record("a", bytes: 10, etag: "\"2\"", piece: DiskCachePlacement(offset: 20, objectLength: 100))
        let newPiece = Self.record("a", bytes: 10, etag: "\"2\"", piece: DiskCachePlacement(offset: 50, objectLength: 100))
        var index = Self.filled(maxBytes: 1000, [oldPiece, oldWhole, samePiece, newPiece])
        let stale = index.dropSuperseded(by: newPiece.1.entry)
        #expect(Set(stale) == [oldPiece.0, oldWhole.0])
        #expect(Set(index.entries.keys) == [samePiece.0, newPiece.0])
    }
}
