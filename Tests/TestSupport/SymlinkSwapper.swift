import Foundation
import Glibc
import Synchronization

/// A thread that swaps `path` between a regular file and a symlink to `outside`, atomically (rename
/// over it), as fast as it can until stopped.
public final class SymlinkSwapper: Sendable {
    public let path: String
    public let outside: String
    private let stopping = Atomic<Bool>(false)
    private let swaps = Atomic<Int>(0)
    private let finished = Mutex<Bool>(false)

    /// Writes a regular file at `path`; nothing swaps before `start()`.
    public init(path: String, outside: String) {
        self.path = path
        self.outside = outside
        try? Data("inside\n".utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Starts swapping on a thread of its own.
    public func start() {
        Thread.detachNewThread { [self] in
            let link = path + ".link"
            let file = path + ".file"
            while !stopping.load(ordering: .relaxed) {
                unlink(link)
                _ = symlink(outside, link)
                _ = rename(link, path)
                try? Data("inside\n".utf8).write(to: URL(fileURLWithPath: file))
                _ = rename(file, path)
                swaps.add(1, ordering: .relaxed)
            }
            finished.withLock { $0 = true }
        }
    }

    /// Swaps made so far.
    public var count: Int { swaps.load(ordering: .relaxed) }

    /// Stops the thread (waits for it) and returns how many swaps it made.
    public func stop() -> Int {
        stopping.store(true, ordering: .relaxed)
        while !finished.withLock({ $0 }) { usleep(1000) }  // waits on the thread's own flag
        return swaps.load(ordering: .relaxed)
    }
}
