import Foundation
import Glibc
import Synchronization

/// Starting children and reading their pipes safely from a parallel test suite.
///
/// Two Foundation behaviours on Linux bite a suite that starts processes from many tasks at once:
/// `Process.run()` is not safe to call concurrently (seen: a crash in its argument copying), and
/// `FileHandle.availableData` / `readDataToEndOfFile()` trap on EINTR, which SIGCHLD from another
/// test's child can cause. So launches are serialized, and pipes are read with read(2), retrying EINTR.
enum ChildProcess {
    private static let launchLock = Mutex(())

    /// Runs `process.run()` while no other test is launching a process.
    static func launch(_ process: Process) throws {
        try launchLock.withLock { _ in try process.run() }
    }

    /// Reads `fd` to end of file on a thread of its own, handing each piece to `sink`.
    static func drain(_ fd: Int32, into sink: @escaping @Sendable ([UInt8]) -> Void) {
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    sink(Array(buffer[0..<count]))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
        }
    }

    /// Reads `fd` to end of file on the calling thread.
    static func readAll(_ fd: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                result += buffer[0..<count]
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return result
            }
        }
    }
}
