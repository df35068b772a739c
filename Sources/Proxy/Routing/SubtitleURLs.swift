import Synchronization

/// Subtitle URLs as read from their paths, kept by path: every request of a viewer for a subtitle
/// playlist or file names the same few paths again, and reading one (splitting its segments, decoding
/// the master's base64url, checking the leaf) was a fifth of a cached subtitle file's instructions
/// (bench/README.md). A path's reading depends on nothing else, so an entry is never stale. Paths that
/// are not subtitle URLs are not kept (each is read again and refused with its error); the signed form
/// is not kept either (its tokens differ per viewer).
final class SubtitleURLs: Sendable {
    /// Paths kept at most. They come from requests, so a flood of distinct ones must not grow memory:
    /// past this the table is emptied and fills again from what is played.
    static let capacity = 4096
    /// The longest path kept, in bytes: a longer one is read every time, so the table holds at most
    /// about 4,096 × (1 KiB of path and its master target), whatever the request-line limit allows.
    static let maxKeptLength = 1024

    private let read = Mutex<[Substring: SubtitleURL]>([:])

    /// The subtitle URL for `rest`, the raw path after the reserved prefix's "/" (still percent-encoded:
    /// the reading never decodes it); `parse` reads it the first time.
    func url(_ rest: Substring, parse: (Substring) -> SubtitleURL?) -> SubtitleURL? {
        if let kept = read.withLock({ $0[rest] }) { return kept }
        guard let url = parse(rest) else { return nil }
        guard rest.utf8.count <= Self.maxKeptLength else { return url }
        // A copy of its own, so the table does not hold the request's whole path string.
        let key = Substring(String(rest))
        read.withLock { read in
            if read.count >= Self.capacity { read.removeAll(keepingCapacity: true) }
            read[key] = url
        }
        return url
    }

    /// How many paths are kept (for tests).
    var count: Int { read.withLock { $0.count } }
}
