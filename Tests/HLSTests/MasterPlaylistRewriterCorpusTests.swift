import HLS
import TestSupport
import Testing

/// The rewriter against every real-world master in Tests/Fixtures/corpus/master.
@Suite struct MasterPlaylistRewriterCorpusTests {
    let rewriter = MasterPlaylistRewriter(tracks: PlaylistFixtures.tracks)
    let ourURIs = Set(PlaylistFixtures.tracks.indices.map(PlaylistFixtures.trackURI))

    func rewrite(_ bytes: [UInt8]) throws -> [UInt8] {
        try rewriter.rewrite(bytes, uri: PlaylistFixtures.trackURI)
    }

    /// True for an EXT-X-MEDIA line the rewriter added.
    func isOurRendition(_ line: PlaylistLine) -> Bool {
        line.isTag("EXT-X-MEDIA") && (line.attributes?.value("URI")).map(ourURIs.contains) == true
    }

    @Test(arguments: PlaylistFixtures.masters)
    func everyVariantReferencesExactlyOneSubtitlesGroup(name: String) throws {
        let output = try Playlist.parse(rewrite(PlaylistFixtures.bytes("corpus/master/" + name)))
        let variants = output.lines.filter { $0.isTag("EXT-X-STREAM-INF") }
        #expect(!variants.isEmpty)
        for variant in variants {
            let names = try #require(variant.attributes).names
            #expect(names.filter { $0 == "SUBTITLES" }.count == 1, "\(variant.text)")
            #expect(Set(names).count == names.count, "duplicate attribute in \(variant.text)")
        }
    }

    @Test(arguments: PlaylistFixtures.masters)
    func everyReferencedGroupHasBothTracksAndNoDuplicateNamesOrDefaults(name: String) throws {
        let output = try Playlist.parse(rewrite(PlaylistFixtures.bytes("corpus/master/" + name)))
        let groups = Set(output.lines.filter { $0.isTag("EXT-X-STREAM-INF") }.compactMap { $0.attributes?.value("SUBTITLES") })
        let renditions = output.lines.filter { $0.isTag("EXT-X-MEDIA") }.compactMap(\.attributes).filter { $0.value("TYPE") == "SUBTITLES" }
        for group in groups {
            let members = renditions.filter { $0.value("GROUP-ID") == group }
            let memberNames = members.compactMap { $0.value("NAME") }
            #expect(Set(memberNames).count == memberNames.count, "NAMEs in \(group): \(memberNames)")
            #expect(members.filter { $0.value("DEFAULT") == "YES" }.count <= 1, "DEFAULTs in \(group)")
            #expect(Set(members.compactMap { $0.value("URI") }).isSuperset(of: ourURIs), "group \(group)")
        }
    }

    @Test(arguments: PlaylistFixtures.masters)
    func originalLinesSurviveInOrderAndOnlyVariantsGrow(name: String) throws {
        let input = try Playlist.parse(PlaylistFixtures.bytes("corpus/master/" + name))
        let output = try Playlist.parse(rewrite(PlaylistFixtures.bytes("corpus/master/" + name)))
        let kept = output.lines.filter { !isOurRendition($0) }
        try #require(kept.count == input.lines.count)
        for (before, after) in zip(input.lines, kept) {
            #expect(after.ending == before.ending)
            if before.isTag("EXT-X-STREAM-INF") {
                // Appended, never rewritten: the original text is a prefix of the new one.
                #expect(after.content.starts(with: before.content), "\(after.text)")
            } else {
                #expect(after.content == before.content, "\(after.text)")
            }
        }
    }

    @Test(arguments: PlaylistFixtures.masters)
    func iFrameVariantsNeverGetSubtitles(name: String) throws {
        let input = try Playlist.parse(PlaylistFixtures.bytes("corpus/master/" + name))
        let output = try Playlist.parse(rewrite(PlaylistFixtures.bytes("corpus/master/" + name)))
        let before = input.lines.filter { $0.isTag("EXT-X-I-FRAME-STREAM-INF") }
        let after = output.lines.filter { $0.isTag("EXT-X-I-FRAME-STREAM-INF") }
        #expect(after == before)
        #expect(after.allSatisfy { $0.attributes?.contains("SUBTITLES") == false })
    }

    @Test(arguments: PlaylistFixtures.masters)
    func newRenditionsFollowTheLastMediaTagOrPrecedeTheFirstVariant(name: String) throws {
        let input = try Playlist.parse(PlaylistFixtures.bytes("corpus/master/" + name))
        let output = try Playlist.parse(rewrite(PlaylistFixtures.bytes("corpus/master/" + name)))
        let ours = output.lines.indices.filter { isOurRendition(output.lines[$0]) }
        let first = try #require(ours.first)
        #expect(ours == Array(first..<(first + ours.count)), "contiguous")
        let previous = output.lines[first - 1]
        if input.lines.contains(where: { $0.isTag("EXT-X-MEDIA") }) {
            let lastMedia = output.lines.lastIndex { $0.isTag("EXT-X-MEDIA") && !isOurRendition($0) }
            #expect(lastMedia == first - 1)
        } else {
            #expect(output.lines[first + ours.count].isTag("EXT-X-STREAM-INF"))
            #expect(!previous.isTag("EXT-X-STREAM-INF"))
        }
        #expect(ours.allSatisfy { output.lines[$0].ending == input.lineEnding })
    }

    @Test(arguments: PlaylistFixtures.masters)
    func rewritingTwiceChangesNothing(name: String) throws {
        let once = try rewrite(PlaylistFixtures.bytes("corpus/master/" + name))
        #expect(try rewrite(once) == once)
    }

    /// Expected outputs, each read line by line against HLS-NOTES.md before it was committed.
    @Test(arguments: [
        "azure-ams-dynamic-packaging-qualitylevels.m3u8",
        "apple-bipbop-16x9-variant-8-subtitles.m3u8",
        "crlf-media-after-variants-dangling-groups.m3u8",
        "shaka-packager-subs-group-no-default.m3u8",
        "comment-before-extm3u-space-in-attrs.m3u8",
        "grafov-cc-none-audio-subs-groups.m3u8",
        "trailing-comma-attr-list.m3u8",
        "content-steering-pathways-stable-ids.m3u8",
    ])
    func rewrittenMasterMatchesItsGoldenFile(name: String) throws {
        let output = try rewrite(PlaylistFixtures.bytes("corpus/master/" + name))
        try PlaylistFixtures.recordGoldenIfAsked("master/" + name, output)
        #expect(output == (try PlaylistFixtures.golden("master/" + name)))
    }
}
