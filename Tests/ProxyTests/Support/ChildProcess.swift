import Foundation
import Glibc

/// Reading children's pipes safely from a parallel test suite: with read(2), retrying EINTR
/// (Foundation's `FileHandle.availableData` and `readDataToEndOfFile()` trap on it, and SIGCHLD from
/// another test's child can cause it). Children are started by `SpawnedProcess`.
enum ChildProcess {
    /// Reads `fd` to end of file on a thread of its own, handing each piece to `sink`, then calls `atEnd`.
    static func drain(_ fd: Int32, into sink: @escaping @Sendable ([UInt8]) -> Void, atEnd: @escaping @Sendable () -> Void = {}) {
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
            atEnd()
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
