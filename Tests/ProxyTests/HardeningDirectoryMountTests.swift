import Foundation
import Glibc
import TestSupport
import Testing

/// Directory mounts over real sockets: files are opened relative to the mount's directory descriptor,
/// so a symlink swapped in between a check and an open cannot reach outside, in-mount symlinks still
/// work, and only regular files are served (a FIFO's open would block the loop thread forever).
@Suite(.serialized, .timeLimit(.minutes(3))) struct HardeningDirectoryMountTests {
    /// A temp mount root with `inside.txt`, `sub/real.txt`, `link.txt -> sub/real.txt`,
    /// `sub/up.txt -> ../inside.txt`, `escape.txt -> <secret>`, `escape-rel.txt -> ../secret.txt`,
    /// and a secret file next to (outside) the root.
    struct Mount {
        let root: String
        let secret: String

        init() throws {
            let base = NSTemporaryDirectory() + "dir-mount-" + UUID().uuidString
            root = base + "/root"
            secret = base + "/secret.txt"
            let files = FileManager.default
            try files.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
            try Data("SECRET-BYTES\n".utf8).write(to: URL(fileURLWithPath: secret))
            try Data("inside\n".utf8).write(to: URL(fileURLWithPath: root + "/inside.txt"))
            try Data("real\n".utf8).write(to: URL(fileURLWithPath: root + "/sub/real.txt"))
            try files.createSymbolicLink(atPath: root + "/link.txt", withDestinationPath: "sub/real.txt")
            try files.createSymbolicLink(atPath: root + "/sub/up.txt", withDestinationPath: "../inside.txt")
            try files.createSymbolicLink(atPath: root + "/escape.txt", withDestinationPath: secret)
            try files.createSymbolicLink(atPath: root + "/escape-rel.txt", withDestinationPath: "../secret.txt")
        }

        var config: String {
            #"{ "mounts": { "jail": { "origin": "\#(root)" } }, "subtitles": [ { "name": "s", "masters": ["/jail/*.m3u8"], "#
                + #""tracks": [ { "id": "en", "language": "en", "name": "English", "source": "en.vtt" } ] } ] }"#
        }

        func remove() { try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent) }
    }

    @Test func aFileSwappedForASymlinkToAnOutsideFileNeverServesTheOutsideFile() async throws {
        let mount = try Mount()
        defer { mount.remove() }
        let swapper = SymlinkSwapper(path: mount.root + "/target.txt", outside: mount.secret)
        try await withProxy(mount.config) { proxy in
            swapper.start()
            // Four keep-alive connections, 750 requests each, each on a thread of its own: cheap enough
            // that thousands of requests do not starve the rest of the suite.
            let port = proxy.port
            let results = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await onThread {
                            let client = try RawSocketClient(port: port)
                            var statuses: [Int] = []
                            for _ in 0..<750 {
                                try client.send("GET /jail/target.txt HTTP/1.1\r\nHost: proxy\r\n\r\n")
                                let response = try client.readResponse()
                                let (status, body) = (response.status, response.body)
                                // -1 marks the secret: it must never come out.
                                statuses.append(String(decoding: body, as: UTF8.self).contains("SECRET") ? -1 : status)
                            }
                            return statuses
                        }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let swaps = swapper.stop()
            let leaks = results.filter { $0 == -1 }.count
            let served = results.filter { $0 == 200 }.count
            let odd = results.filter { ![200, 403, 404, -1].contains($0) }
            #expect(leaks == 0, "the outside file was served \(leaks) times in \(results.count) requests")
            #expect(odd.isEmpty, "unexpected statuses: \(Set(odd))")
            #expect(served > 0, "the file itself was served too")
            #expect(swaps > 100, "the swapper ran \(swaps) times")
        }
    }

    @Test func symlinksThatStayInsideAMountStillServe() async throws {
        let mount = try Mount()
        defer { mount.remove() }
        try await withProxy(mount.config) { proxy in
            let link = try await proxy.get("/jail/link.txt")
            #expect(link.status == 200)
            #expect(link.text == "real\n")
            let up = try await proxy.get("/jail/sub/up.txt")
            #expect(up.status == 200)
            #expect(up.text == "inside\n")
        }
    }

    @Test(arguments: ["/jail/escape.txt", "/jail/escape-rel.txt"])
    func symlinksThatLeaveAMountAreRefused(path: String) async throws {
        let mount = try Mount()
        defer { mount.remove() }
        try await withProxy(mount.config) { proxy in
            let response = try await proxy.get(path)
            #expect([403, 404].contains(response.status), "\(path) -> \(response.status)")
            #expect(!response.text.contains("SECRET"))
        }
    }

    @Test func aNamedPipeInAMountGetsA4xxAndTheServerKeepsAnswering() async throws {
        let mount = try Mount()
        defer { mount.remove() }
        let pipe = mount.root + "/pipe.ts"
        #expect(mkfifo(pipe, 0o644) == 0)
        // Whatever happens, a reader stuck in open(2) on the pipe is released at the end.
        defer { Self.openWriter(pipe) }
        try await withProxy(mount.config) { proxy in
            async let fifo = proxy.get("/jail/pipe.ts")
            // Meanwhile, on another connection: a blocked loop thread would leave this unanswered.
            let health = try? await Self.getOnThread(port: proxy.port, "/healthz")
            // A loop thread stuck opening the pipe is let go before anything else, so the test fails
            // rather than hangs.
            Self.openWriter(pipe)
            let response = try await fifo
            #expect(health?.status == 200, "/healthz went unanswered while the pipe was requested")
            #expect([403, 404].contains(response.status), "\(response.status)")
            #expect(try await proxy.get("/healthz").status == 200)
        }
    }

    /// Opens and closes the writing end of a FIFO without blocking, which lets go of a reader blocked
    /// in open(2) on it.
    static func openWriter(_ pipe: String) {
        let writer = open(pipe, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
    }

    @Test func aNamedPipeAsAMasterOrSubtitleSourceIsRefusedNotWaitedOn() async throws {
        let mount = try Mount()
        defer { mount.remove() }
        let pipes = [mount.root + "/live.m3u8", mount.root + "/en.vtt"]
        for pipe in pipes { #expect(mkfifo(pipe, 0o644) == 0) }
        defer { for pipe in pipes { Self.openWriter(pipe) } }
        try await withProxy(mount.config) { proxy in
            // A fetch stuck opening the pipe is let go after a while (a writer opens it), so the old
            // behaviour fails the test instead of hanging it.
            let release = Task.detached {
                try await Task.sleep(for: .seconds(10))
                for pipe in pipes { Self.openWriter(pipe) }
            }
            defer { release.cancel() }
            let master = try await proxy.get("/jail/live.m3u8")
            #expect([403, 404].contains(master.status), "\(master.status)")
        }
    }

    @Test(arguments: ["/jail/inside.txt/", "/jail/sub/real.txt/", "/jail/link.txt/", "/jail/inside.txt//"])
    func aFileAskedForWithATrailingSlashGetsA4xxAsTheKernelAnswersIt(path: String) async throws {
        let mount = try Mount()
        defer { mount.remove() }
        try await withProxy(mount.config) { proxy in
            var file = path
            while file.hasSuffix("/") { file.removeLast() }
            let served = try await proxy.get(file)
            #expect(served.status == 200, "\(file) is served")
            let response = try await proxy.get(path)
            #expect([403, 404].contains(response.status), "\(path) -> \(response.status)")
            #expect(response.body != served.body, "\(path) served the file")
        }
    }

    @Test(arguments: ["/jail/sub", "/jail/sub/", "/jail/", "/jail/device"])
    func directoriesAndDevicesInAMountGetA4xx(path: String) async throws {
        let mount = try Mount()
        defer { mount.remove() }
        // A character device (the same numbers as /dev/null) where the kernel lets us make one; where it
        // does not, the path is simply missing and still gets its 404.
        _ = mknod(mount.root + "/device", S_IFCHR | 0o666, dev_t(1 << 8 | 3))
        try await withProxy(mount.config) { proxy in
            let response = try await proxy.get(path)
            #expect([403, 404].contains(response.status), "\(path) -> \(response.status)")
        }
    }

    /// A GET on a raw socket whose read gives up after 10 s, so a server that never answers fails the
    /// test instead of hanging it.
    static func getOnThread(port: Int, _ target: String) async throws -> RawResponse {
        try await onThread {
            let socket = try RawSocketClient(port: port, timeout: .seconds(10))
            socket.sendIfOpen(Array("GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            return try TestClient.parse(socket.readUntilClose().bytes, method: "GET")
        }
    }
}
