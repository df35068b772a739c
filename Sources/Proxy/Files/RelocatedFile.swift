import HTTPServer

/// A directory-mount playlist file as `FileResponder` relocated it, kept in memory while the file is
/// the one it was made from: the key holds the file's identity from the fstat of each request's open
/// (device, inode, size, mtime in ns), so an edit or a rename over it is a new key, never a stale body.
enum RelocatedFile: Sendable {
    /// The relocated bytes, sent instead of the file.
    case relocated([UInt8])
    /// Relocation changed nothing: the file itself is sent (sendfile).
    case unchanged

    /// How long an entry is kept unasked for. Freshness is the key's job; this only lets a file that
    /// is no longer played give its memory back before the LRU needs it.
    static let keptFor: Duration = .seconds(300)

    /// The relocated bytes, or nil when the file is sent as it is.
    var bytes: [UInt8]? {
        if case .relocated(let bytes) = self { return bytes }
        return nil
    }

    /// The bytes an entry holds, as the cache budget counts them (its key included).
    func cost(key: String) -> Int { (bytes?.count ?? 0) + key.utf8.count }

    /// The key for the file at the confined `path` of `mount` with `identity`: the mount's name too, as
    /// relocation points URIs at the mount (two mounts may share a directory).
    static func key(path: String, mount: Mount?, identity: HTTPFileIdentity) -> String {
        var key = KeyBytes(reserving: path.utf8.count + 96)
        key.add(mount?.name ?? "")
        key.add(path)
        // The identity: `device:inode:size:seconds.nanoseconds`.
        key.appendDecimal(identity.device)
        key.append(UInt8(ascii: ":"))
        key.appendDecimal(identity.inode)
        key.append(UInt8(ascii: ":"))
        key.appendDecimal(identity.size)
        key.append(UInt8(ascii: ":"))
        key.appendDecimal(identity.modifiedSeconds)
        key.append(UInt8(ascii: "."))
        key.appendDecimal(identity.modifiedNanoseconds)
        return key.string
    }
}
