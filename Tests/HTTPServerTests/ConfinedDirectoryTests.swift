import Foundation
import Glibc
@testable import HTTPServer
import Synchronization
import TestSupport
import Testing

/// Opening files beneath a directory descriptor, by both methods: openat2 with RESOLVE_BENEATH, and the
/// component-by-component O_NOFOLLOW walk used where the kernel (or a seccomp profile) refuses openat2.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ConfinedDirectoryTests {
    /// A mount-like tree and a secret file outside it:
    /// `inside.txt`, `sub/real.txt`, `sub/up.txt -> ../inside.txt`, `link.txt -> sub/real.txt`,
    /// `dirlink -> sub`, `escape-abs -> <secret>`, `escape-rel -> ../<secret name>`, `escape-dir -> ..`,
    /// `loop-a -> loop-b -> loop-a`, `chain-N` links of 45 in a row.
    struct Tree {
        let root: String
        let secret: String

        init() throws {
            let base = NSTemporaryDirectory() + "confined-" + UUID().uuidString
            root = base + "/root"
            secret = base + "/secret.txt"
            let files = FileManager.default
            try files.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
            try Data("SECRET\n".utf8).write(to: URL(fileURLWithPath: secret))
            try Data("inside\n".utf8).write(to: URL(fileURLWithPath: root + "/inside.txt"))
            try Data("real\n".utf8).write(to: URL(fileURLWithPath: root + "/sub/real.txt"))
            try files.createSymbolicLink(atPath: root + "/sub/up.txt", withDestinationPath: "../inside.txt")
            try files.createSymbolicLink(atPath: root + "/link.txt", withDestinationPath: "sub/real.txt")
            try files.createSymbolicLink(atPath: root + "/dirlink", withDestinationPath: "sub")
            try files.createSymbolicLink(atPath: root + "/escape-abs", withDestinationPath: secret)
            try files.createSymbolicLink(atPath: root + "/escape-rel", withDestinationPath: "../secret.txt")
            try files.createSymbolicLink(atPath: root + "/escape-dir", withDestinationPath: "..")
            try files.createSymbolicLink(atPath: root + "/loop-a", withDestinationPath: "loop-b")
            try files.createSymbolicLink(atPath: root + "/loop-b", withDestinationPath: "loop-a")
            for index in 0..<45 {
                try files.createSymbolicLink(atPath: root + "/chain-\(index)", withDestinationPath: "chain-\(index + 1)")
            }
            try Data("end\n".utf8).write(to: URL(fileURLWithPath: root + "/chain-45"))
        }

        func remove() { try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent) }
    }

    static func text(_ file: HTTPFile) throws -> String {
        String(decoding: try file.read(upTo: 1 << 20), as: UTF8.self)
    }

    static let methods: [ConfinedDirectory.Resolution] = [.kernel, .walk]

    @Test(arguments: methods)
    func symlinksThatStayInsideTheDirectoryStillOpen(method: ConfinedDirectory.Resolution) throws {
        let tree = try Tree()
        defer { tree.remove() }
        let directory = try ConfinedDirectory(path: tree.root, resolution: method)
        #expect(try Self.text(directory.openFile("inside.txt")) == "inside\n")
        #expect(try Self.text(directory.openFile("link.txt")) == "real\n")
        #expect(try Self.text(directory.openFile("sub/up.txt")) == "inside\n")
        #expect(try Self.text(directory.openFile("dirlink/real.txt")) == "real\n")
        #expect(try Self.text(directory.openFile("dirlink/up.txt")) == "inside\n")
        #expect(try Self.text(directory.openFile("chain-10")) == "end\n")
    }

    /// A "/" that Unicode joins to its neighbour into one Character is still a separator: the name before
    /// it is resolved as a name of its own, so a symlink there that leaves the directory is refused.
    @Test(arguments: methods)
    func aSlashJoinedToItsNeighbourStillSeparatesNames(method: ConfinedDirectory.Resolution) throws {
        let tree = try Tree()
        defer { tree.remove() }
        let outside = (tree.root as NSString).deletingLastPathComponent
        for name in ["X\u{600}", "a", "z\u{200D}"] {
            try FileManager.default.createSymbolicLink(atPath: tree.root + "/" + name, withDestinationPath: outside)
        }
        let directory = try ConfinedDirectory(path: tree.root, resolution: method)
        for path in ["X\u{600}/secret.txt", "a/\u{301}secret.txt", "a/\u{200D}secret.txt", "z\u{200D}/secret.txt"] {
            do throws(HTTPServerError) {
                let file = try directory.openFile(path)
                Issue.record("\(path.unicodeScalars.map { String($0.value, radix: 16) }) opened: \((try? Self.text(file)) ?? "")")
            } catch {
                // The joined mark makes the last name one that does not exist there, or the link is refused.
                #expect(error.isOutsideDirectory || error.isNoSuchFile, "\(path): \(error)")
            }
        }
        #expect(ConfinedDirectory.names("a/\u{301}b//c\u{600}/") == ["a", "\u{301}b", "c\u{600}"])
    }

    @Test(arguments: methods)
    func symlinksThatLeaveTheDirectoryAreRefused(method: ConfinedDirectory.Resolution) throws {
        let tree = try Tree()
        defer { tree.remove() }
        let directory = try ConfinedDirectory(path: tree.root, resolution: method)
        for path in ["escape-abs", "escape-rel", "escape-dir/secret.txt", "sub/../../secret.txt", "dirlink/../escape-rel"] {
            do throws(HTTPServerError) {
                let file = try directory.openFile(path)
                Issue.record("\(path) opened: \((try? Self.text(file)) ?? "")")
            } catch {
                #expect(error.isOutsideDirectory, "\(path): \(error)")
            }
        }
    }

    @Test(arguments: methods)
    func symlinkLoopsAndOverlongChainsAreRefusedWithELOOP(method: ConfinedDirectory.Resolution) throws {
        let tree = try Tree()
        defer { tree.remove() }
        let directory = try ConfinedDirectory(path: tree.root, resolution: method)
        for path in ["loop-a", "chain-0"] {
            #expect(throws: HTTPServerError.self) { try directory.openFile(path) }
            do { _ = try directory.openFile(path) } catch { #expect(error.errorNumber == ELOOP, "\(path): \(error)") }
        }
    }

    @Test(arguments: methods)
    func missingPathsDirectoriesAndFifosAreRefusedWithoutBlocking(method: ConfinedDirectory.Resolution) throws {
        let tree = try Tree()
        defer { tree.remove() }
        #expect(mkfifo(tree.root + "/pipe", 0o644) == 0)
        let directory = try ConfinedDirectory(path: tree.root, resolution: method)
        do { _ = try directory.openFile("nothing.txt"); Issue.record("opened") } catch { #expect(error.isNoSuchFile) }
        do { _ = try directory.openFile("inside.txt/x"); Issue.record("opened") } catch { #expect(error.isNoSuchFile) }
        for path in ["sub", "", ".", "dirlink", "sub/..", "pipe"] {
            do { _ = try directory.openFile(path); Issue.record("\(path) opened") } catch { #expect(error.isNotRegularFile, "\(path): \(error)") }
        }
    }

    /// The race the check-then-open design lost: a file swapped for a symlink to a file outside, and
    /// back, thousands of times while it is opened. Not once may the outside file's bytes come out.
    @Test(arguments: methods)
    func aFileSwappedForAnEscapingSymlinkNeverOpensTheOutsideFile(method: ConfinedDirectory.Resolution) async throws {
        let tree = try Tree()
        defer { tree.remove() }
        let directory = try ConfinedDirectory(path: tree.root, resolution: method)
        let swaps = SymlinkSwapper(path: tree.root + "/target.txt", outside: tree.secret)
        swaps.start()
        // On a thread of its own: a loop this long on the task pool would starve every other test.
        let (served, refused, leaked, opens) = try await onThread { () -> (Int, Int, Int, Int) in
            var served = 0, refused = 0, leaked = 0, opens = 0
            // At least 20,000 opens and 500 swaps (a loaded machine may run the swapper slowly), bounded.
            while opens < 20_000 || swaps.count < 500, opens < 1_000_000 {
                opens += 1
                do {
                    let text = try Self.text(directory.openFile("target.txt"))
                    if text.contains("SECRET") { leaked += 1 } else { served += 1 }
                } catch {
                    refused += 1
                }
            }
            return (served, refused, leaked, opens)
        }
        let swapped = swaps.stop()
        #expect(leaked == 0, "the outside file was opened \(leaked) times")
        #expect(swapped >= 500, "the swapper ran \(swapped) times in \(opens) opens")
        #expect(served > 0 && refused > 0, "served \(served), refused \(refused): both states were seen")
    }

    @Test(arguments: methods)
    func aFileNamedWithATrailingSlashIsRefusedAsTheKernelRefusesIt(method: ConfinedDirectory.Resolution) throws {
        let tree = try Tree()
        defer { tree.remove() }
        // A trailing "/" asks for a directory: "inside.txt/" is ENOTDIR to openat2, and must be to the walk.
        try FileManager.default.createSymbolicLink(atPath: tree.root + "/slash-link", withDestinationPath: "inside.txt/")
        let directory = try ConfinedDirectory(path: tree.root, resolution: method)
        for path in ["inside.txt/", "sub/real.txt/", "link.txt/", "slash-link", "dirlink/real.txt//"] {
            do throws(HTTPServerError) {
                let file = try directory.openFile(path)
                Issue.record("\(path) opened: \((try? Self.text(file)) ?? "")")
            } catch {
                #expect(error.errorNumber == ENOTDIR, "\(path): \(error)")
            }
        }
        #expect(try Self.text(directory.openFile("dirlink/real.txt")) == "real\n")
    }
}
