import Foundation
import Testing
import TestSupport
@testable import Proxy

/// Directory-mount paths become `file://` URLs and back on every request; a plain path is written
/// without Foundation, and must come out exactly as Foundation's `URL` writes and reads it.
@Suite struct FileConfinementURLTests {
    /// Paths under a directory that does not exist, so Foundation's `URL(fileURLWithPath:)` never finds
    /// a directory there (it would add a "/").
    static let base = "/nonexistent-\(UInt32.random(in: 0...UInt32.max))"

    static func isPlain(_ path: String) -> Bool { FileConfinement.isPlain(path.utf8.span) }

    static func foundationURL(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }
    static func foundationPath(_ url: String) -> String? { URL(string: url).flatMap { $0.isFileURL ? $0.path : nil } }

    @Test(arguments: [
        "/a", "/a/b.m3u8", "/sample-vod/v0/index.m3u8", "/x/seg_000-1~2.ts", "/.hidden/file", "/a/..b", "/a/b.", "/a/...",
        "/a b", "/a%20b", "/a/./b", "/a/../b", "/a//b", "/a/", "/", "", "a/b", "/a/b/.", "/a/b/..", "/é", "/a?b", "/a#b",
        "/a;b", "/a:b", "/a@b", "/a+b", "/a=b", "/a&b", "/a$b", "/a!b", "/a'b", "/a(b)", "/a*b", "/a,b", "/a\\b", "/a\"b",
    ])
    func aPathsFileURLAndItsWayBackMatchFoundation(relative: String) {
        let path = relative.hasPrefix("/") ? Self.base + relative : relative
        if path.hasPrefix("/") {
            #expect(FileConfinement.fileURL(path: path) == Self.foundationURL(path), "\(path)")
        }
        let url = Self.foundationURL(path)
        #expect(FileConfinement.path(fromFileURL: url) == Self.foundationPath(url), "\(url)")
    }

    @Test func onlyAbsolutePathsOfUnreservedCharactersWithoutDotOrEmptySegmentsArePlain() {
        for plain in ["/a", "/a/b.m3u8", "/.hidden", "/a..", "/v0/seg000.ts", "/A-Z_0~9"] {
            #expect(Self.isPlain(plain), "\(plain)")
        }
        for other in ["", "/", "a", "a/b", "//a", "/a/", "/a//b", "/.", "/..", "/a/.", "/a/../b", "/...", "/a b", "/a%2e", "/é", "/a?", "/a;b"] {
            #expect(!Self.isPlain(other), "\(other)")
        }
    }

    @Test func seededRandomPathsMatchFoundationBothWays() {
        var generator = SeededGenerator(seed: 19)
        // Mostly characters a path is plain with (a "/" or "." may still make an empty or dot segment),
        // now and then one that needs encoding.
        let plainCharacters = Array("abcXYZ019-_~./".unicodeScalars)
        let others = Array(" %;:@+é?#".unicodeScalars)
        var plainSeen = 0
        for _ in 0..<2_000 {
            let length = Int.random(in: 1...24, using: &generator)
            let scalars = (0..<length).map { _ in
                Int.random(in: 0..<40, using: &generator) == 0
                    ? others[Int.random(in: 0..<others.count, using: &generator)]
                    : plainCharacters[Int.random(in: 0..<plainCharacters.count, using: &generator)]
            }
            let tail = String(String.UnicodeScalarView(scalars))
            let path = Self.base + "/" + tail
            if Self.isPlain(path) { plainSeen += 1 }
            #expect(FileConfinement.fileURL(path: path) == Self.foundationURL(path), "\(path)")
            let url = Self.foundationURL(path)
            #expect(FileConfinement.path(fromFileURL: url) == Self.foundationPath(url), "\(url)")
        }
        // Both branches ran: some paths took the plain form, and some went through Foundation.
        #expect(plainSeen > 100 && plainSeen < 1_900)
    }
}
