import HLS
import TestSupport
import Testing

/// Mutated corpus bytes: every reader returns or throws a typed error, never traps.
@Suite struct PlaylistFuzzTests {
    /// Bytes that matter to the grammar, so mutations hit quotes, commas and line ends often.
    static let interesting: [UInt8] = Array("\"\r\n,=:#@. \t0-9EXT".utf8) + [0x00, 0xFF, 0xEF, 0xBB, 0xBF]

    static func mutate(_ bytes: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            let choice = Int.random(in: 0..<5, using: &random)
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch choice {
            case 0 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 1: bytes.insert(interesting.randomElement(using: &random) ?? 0, at: position)
            case 2 where !bytes.isEmpty: bytes.remove(at: position)
            case 3: bytes = Array(bytes.prefix(position))
            default:
                let length = min(bytes.count - position, Int.random(in: 0...40, using: &random))
                bytes.insert(contentsOf: bytes[position..<(position + length)], at: position)
            }
        }
        return bytes
    }

    static let corpus: [[UInt8]] = (PlaylistFixtures.masters.map { "corpus/master/" + $0 }
        + PlaylistFixtures.mediaPlaylists.map { "corpus/media/" + $0 }).compactMap { try? PlaylistFixtures.bytes($0) }

    @Test func mutatedPlaylistsReturnOrThrowAndRoundTripWhenTheyParse() {
        var random = SeededGenerator()
        let rewriter = MasterPlaylistRewriter(tracks: PlaylistFixtures.tracks)
        #expect(Self.corpus.count == 34)
        var parsed = 0
        var rewritten = 0
        for round in 0..<1500 {
            let original = Self.corpus[round % Self.corpus.count]
            let bytes = Self.mutate(original, using: &random)
            _ = try? MediaPlaylist.parse(bytes)
            guard let playlist = try? Playlist.parse(bytes) else { continue }
            parsed += 1
            let withoutBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
            #expect(playlist.serialized() == withoutBOM)
            guard let once = try? rewriter.rewrite(bytes, uri: PlaylistFixtures.trackURI) else { continue }
            rewritten += 1
            #expect((try? rewriter.rewrite(once, uri: PlaylistFixtures.trackURI)) == once, "round \(round)")
        }
        // Most mutations keep the header, so the invariants above were really exercised.
        #expect(parsed > 750)
        #expect(rewritten > 250)
    }

    @Test func randomBytesReturnOrThrow() {
        var random = SeededGenerator()
        for _ in 0..<1000 {
            let length = Int.random(in: 0...200, using: &random)
            var bytes = (0..<length).map { _ in Self.interesting.randomElement(using: &random) ?? 0 }
            if Bool.random(using: &random) { bytes = Array("#EXTM3U\n".utf8) + bytes }
            _ = try? MediaPlaylist.parse(bytes)
            _ = try? MasterPlaylistRewriter(tracks: PlaylistFixtures.tracks).rewrite(bytes, uri: { "\($0).m3u8" })
            _ = AttributeList(bytes: bytes).serialized()
            if let playlist = try? Playlist.parse(bytes) {
                #expect(playlist.serialized() == (bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes))
            }
        }
    }

    @Test(arguments: ["shaka-packager-subs-group-no-default.m3u8", "crlf-media-after-variants-dangling-groups.m3u8"])
    func everyTruncationOfAMasterReturnsOrThrows(name: String) throws {
        let bytes = try PlaylistFixtures.bytes("corpus/master/" + name)
        let rewriter = MasterPlaylistRewriter(tracks: PlaylistFixtures.tracks)
        var rewritten = 0
        for length in 0...bytes.count {
            let prefix = Array(bytes.prefix(length))
            guard let once = try? rewriter.rewrite(prefix, uri: PlaylistFixtures.trackURI) else { continue }
            rewritten += 1
            #expect((try? rewriter.rewrite(once, uri: PlaylistFixtures.trackURI)) == once, "prefix \(length): \(String(decoding: once, as: UTF8.self))")
        }
        #expect(rewritten > 0)
    }
}
