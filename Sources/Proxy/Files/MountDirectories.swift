import HTTPServer
import Synchronization

/// The directories of directory mounts, each opened once (when the handler is made) and kept: every
/// file of a mount is opened relative to its directory's descriptor (see `ConfinedDirectory`). A
/// directory missing at start is tried again when a request needs it, so it may be created later.
final class MountDirectories: Sendable {
    private let opened: Mutex<[String: ConfinedDirectory]>
    /// The directories opened at start, looked through in order without the lock or a hash of the root
    /// (a config has a few directory mounts; the root is usually the very string the mount holds, which
    /// compares at once): about 450 instructions a file request less than the table. Past
    /// `maxScanned` mounts, the table alone.
    private let atStart: [(root: String, directory: ConfinedDirectory)]
    private static let maxScanned = 16
    private let resolution: ConfinedDirectory.Resolution

    /// Opens the directory of every directory mount in `mounts`.
    init(_ mounts: [Mount], resolution: ConfinedDirectory.Resolution = .automatic) {
        self.resolution = resolution
        var opened: [String: ConfinedDirectory] = [:]
        var atStart: [(root: String, directory: ConfinedDirectory)] = []
        for mount in mounts {
            guard case .directory(let root) = mount.origin else { continue }
            guard let directory = try? ConfinedDirectory(path: root, resolution: resolution) else { continue }
            if opened[root] == nil { atStart.append((root, directory)) }
            opened[root] = directory
        }
        self.opened = Mutex(opened)
        self.atStart = atStart.count <= Self.maxScanned ? atStart : []
    }

    /// The open directory for a mount root; throws (ENOENT, ENOTDIR) when it cannot be opened.
    func directory(root: String) throws(HTTPServerError) -> ConfinedDirectory {
        for index in atStart.indices where atStart[index].root == root { return atStart[index].directory }
        if let directory = opened.withLock({ $0[root] }) { return directory }
        let directory = try ConfinedDirectory(path: root, resolution: resolution)
        return opened.withLock { opened in
            if let raced = opened[root] { return raced }
            opened[root] = directory
            return directory
        }
    }
}
