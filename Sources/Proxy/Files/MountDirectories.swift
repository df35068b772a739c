import HTTPServer
import Synchronization

/// The directories of directory mounts, each opened once (when the handler is made) and kept: every
/// file of a mount is opened relative to its directory's descriptor (see `ConfinedDirectory`). A
/// directory missing at start is tried again when a request needs it, so it may be created later.
final class MountDirectories: Sendable {
    private let opened: Mutex<[String: ConfinedDirectory]>
    private let resolution: ConfinedDirectory.Resolution

    /// Opens the directory of every directory mount in `mounts`.
    init(_ mounts: [Mount], resolution: ConfinedDirectory.Resolution = .automatic) {
        self.resolution = resolution
        var opened: [String: ConfinedDirectory] = [:]
        for mount in mounts {
            guard case .directory(let root) = mount.origin else { continue }
            opened[root] = try? ConfinedDirectory(path: root, resolution: resolution)
        }
        self.opened = Mutex(opened)
    }

    /// The open directory for a mount root; throws (ENOENT, ENOTDIR) when it cannot be opened.
    func directory(root: String) throws(HTTPServerError) -> ConfinedDirectory {
        if let directory = opened.withLock({ $0[root] }) { return directory }
        let directory = try ConfinedDirectory(path: root, resolution: resolution)
        return opened.withLock { opened in
            if let raced = opened[root] { return raced }
            opened[root] = directory
            return directory
        }
    }
}
