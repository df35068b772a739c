import Testing
import TestSupport
@testable import Proxy

/// `FileConfinement.confinedPath` answers most paths from one pass over their bytes and leaves the rest to
/// its general reading (`decodedConfinedPath`): both must give the same path or the same refusal.
@Suite struct FileConfinementPlainPathTests {
    static let root = "/srv/media"

    /// The path, or the refusal's status and reason.
    static func outcome(_ read: () throws(ProxyError) -> String) -> String {
        do throws(ProxyError) {
            return try read()
        } catch {
            return "\(error.status.code) \(error.reason)"
        }
    }

    static func bothReadings(_ raw: String) -> (fast: String, general: String) {
        (outcome { () throws(ProxyError) in try FileConfinement.confinedPath(root: root, rawRelativePath: raw) },
         outcome { () throws(ProxyError) in try FileConfinement.decodedConfinedPath(root: root, rawRelativePath: raw) })
    }

    @Test(arguments: [
        "v0/seg000.ts", "a", "a/b/c.m3u8", "..", "../x", "a/..", "a/../b", ".", "./a", "a/.", "a//b", "a/", "/a", "",
        "...", "a/.../b", "..a", "a..", ".hidden", "a\\b", "\\", "%2e%2e/x", "a/%2E%2e", "%zz/../x", "%zz\\x", "a%2fb",
        "a%5cb", "%00", "é/x", "a;b", "..;/x", "a/..%2f", "a/\u{200D}b.m3u8", "\u{600}/b.m3u8", "a/\u{301}b.m3u8",
        "../\u{301}x", "\u{301}x.m3u8",
    ])
    func theOnePassReadingAgreesWithTheGeneralOne(raw: String) {
        let (fast, general) = Self.bothReadings(raw)
        #expect(fast == general, "\(raw)")
    }

    @Test func plainPathsAreJoinedToTheRootAsTheyAre() throws {
        #expect(FileConfinement.plainReading("v0/seg000.ts".utf8.span) == .plain)
        #expect(try FileConfinement.confinedPath(root: Self.root, rawRelativePath: "v0/seg000.ts") == "/srv/media/v0/seg000.ts")
        #expect(FileConfinement.plainReading("a/../b".utf8.span) == .leaves)
        #expect(FileConfinement.plainReading("a\\b".utf8.span) == .leaves)
        for general in ["a//b", "a/", "./a", "a%20b", "", "%zz/.."] {
            #expect(FileConfinement.plainReading(general.utf8.span) == .needsDecoding, "\(general)")
        }
    }

    @Test func seededRandomPathsGetTheSameAnswerFromBothReadings() {
        var generator = SeededGenerator()
        let pieces = ["a", "b", ".", "..", "/", "//", "%2e", "%2E", "%2f", "%5c", "\\", "%zz", "%00", "%41", "é", ";", " ", "x.ts",
                      "\u{301}", "\u{200D}", "\u{600}"]
        var counts: [FileConfinement.PlainReading: Int] = [:]
        for _ in 0..<5_000 {
            let raw = (0..<Int.random(in: 0...7, using: &generator))
                .map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
            counts[FileConfinement.plainReading(raw.utf8.span), default: 0] += 1
            let (fast, general) = Self.bothReadings(raw)
            #expect(fast == general, "\(raw) (seed \(generator.seed))")
        }
        // Every reading was taken, so each branch was compared.
        #expect(counts.count == 3, "\(counts)")
    }

    /// The part below the root, as a String prefix test reads it (for paths of ASCII names, where bytes
    /// and Characters agree).
    static func referenceRelativePath(_ path: String, root: String) -> String? {
        if path == root { return "" }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard path.hasPrefix(prefix) else { return nil }
        return String(path.dropFirst(prefix.count))
    }

    @Test func thePartBelowTheRootIsFoundByBytes() {
        let roots = ["/srv/media", "/srv/media/", "/", "/srv"]
        let paths = ["/srv/media", "/srv/media/", "/srv/media/a", "/srv/media/a/b.ts", "/srv/mediaX/a", "/srv/medi", "/srv", "/", "",
                     "/srv/media//a", "srv/media/a", "/x"]
        for root in roots {
            for path in paths {
                #expect(FileConfinement.relativePath(path, root: root) == Self.referenceRelativePath(path, root: root), "\(path) under \(root)")
            }
        }
        // Bytes, not canonical equivalence: a decomposed "é" is another name on disk.
        #expect(FileConfinement.relativePath("/caf\u{65}\u{301}/x", root: "/caf\u{e9}") == nil)
    }
}
