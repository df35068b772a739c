import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// A directory of a mount swapped for a symlink to a directory outside, while requests for a file under
/// it run: the file is opened relative to the mount's descriptor, each component refused if it is a
/// symlink that leaves (RESOLVE_BENEATH, or the O_NOFOLLOW walk), so the outside file never comes out,
/// whatever moment the swap lands between the path's confinement and the open.
@Suite(.serialized, .timeLimit(.minutes(3))) struct HardeningDirectoryMountSwapTests {
    /// Swaps `root/sub` between a real directory (holding `target.txt`, "inside") and a symlink to
    /// `outside` (holding its own `target.txt`, the secret), as fast as it can until stopped.
    final class DirectorySwapper: Sendable {
        let path: String
        let outside: String
        private let stopping = Atomic<Bool>(false)
        private let swaps = Atomic<Int>(0)
        private let finished = Atomic<Bool>(false)

        init(path: String, outside: String) {
            self.path = path
            self.outside = outside
        }

        func start() {
            Thread.detachNewThread { [self] in
                let real = path + ".real"
                while !stopping.load(ordering: .relaxed) {
                    // The real directory moves aside, the symlink takes its name, then the directory comes back.
                    _ = rename(path, real)
                    _ = symlink(outside, path)
                    _ = unlink(path)
                    _ = rename(real, path)
                    swaps.add(1, ordering: .relaxed)
                }
                finished.store(true, ordering: .relaxed)
            }
        }

        func stop() -> Int {
            stopping.store(true, ordering: .relaxed)
            while !finished.load(ordering: .relaxed) { usleep(1000) }
            return swaps.load(ordering: .relaxed)
        }
    }

    @Test func aDirectorySwappedForASymlinkToAnOutsideDirectoryNeverServesTheOutsideFile() async throws {
        let base = NSTemporaryDirectory() + "dir-swap-" + UUID().uuidString
        let root = base + "/root"
        let outside = base + "/outside"
        let files = FileManager.default
        try files.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        try files.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("inside\n".utf8).write(to: URL(fileURLWithPath: root + "/sub/target.txt"))
        try Data("SECRET-BYTES\n".utf8).write(to: URL(fileURLWithPath: outside + "/target.txt"))
        defer { try? files.removeItem(atPath: base) }
        let swapper = DirectorySwapper(path: root + "/sub", outside: outside)
        try await withProxy(#"{ "mounts": { "jail": { "origin": "\#(root)" } } }"#) { proxy in
            swapper.start()
            let port = proxy.port
            let results = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await onThread {
                            let client = try RawSocketClient(port: port)
                            var statuses: [Int] = []
                            for _ in 0..<750 {
                                try client.send("GET /jail/sub/target.txt HTTP/1.1\r\nHost: proxy\r\n\r\n")
                                let response = try client.readResponse()
                                // -1 marks the secret: it must never come out.
                                statuses.append(String(decoding: response.body, as: UTF8.self).contains("SECRET") ? -1 : response.status)
                            }
                            return statuses
                        }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let swaps = swapper.stop()
            let leaks = results.filter { $0 == -1 }.count
            let odd = results.filter { ![200, 403, 404, -1].contains($0) }
            #expect(leaks == 0, "the outside file was served \(leaks) times in \(results.count) requests")
            #expect(odd.isEmpty, "unexpected statuses: \(Set(odd))")
            #expect(results.contains(200), "the file itself was served too")
            #expect(swaps > 100, "the swapper ran \(swaps) times")
        }
    }
}
