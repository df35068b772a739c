import Foundation
@testable import HLS
import TestSupport
import Testing

/// The WebVTT parser against the previous implementation (ReferenceWebVTTParser), document for document:
/// random documents from a grammar of the pieces parsers get wrong, every WebVTT fixture, every cap.
@Suite struct WebVTTParserDifferentialTests {
    /// The parser's answer in a comparable form: the document, or the error.
    private static func outcome(_ parse: () throws(SubtitleError) -> WebVTTDocument) -> Result<WebVTTDocument, SubtitleError> {
        do throws(SubtitleError) { return .success(try parse()) } catch { return .failure(error) }
    }

    private static func compare(_ bytes: [UInt8], maxCues: Int, _ context: @autoclosure () -> String) -> Bool {
        let expected = outcome { () throws(SubtitleError) in try ReferenceWebVTTParser.parse(bytes, maxCues: maxCues) }
        let actual = outcome { () throws(SubtitleError) in try WebVTTDocument.parse(bytes, maxCues: maxCues) }
        let lineRangesAgree = WebVTTParser.lineRanges(bytes, from: 0) == ReferenceWebVTTParser.lineRanges(bytes, from: 0)
        // Grammar documents are short enough to show whole; a fixture is named by its path.
        let input = bytes.count <= 4096 ? "input \(bytes)" : "\(bytes.count) bytes"
        #expect(actual == expected, "\(context()), maxCues \(maxCues), \(input)")
        #expect(lineRangesAgree, "\(context()): lineRanges, \(input)")
        return actual == expected && lineRangesAgree
    }

    @Test func randomDocumentsParseAsThePreviousParserParsedThem() {
        // HLS_TEST_SEED replays a run; the seed is printed and named in every failure.
        var random = SeededGenerator()
        let seed = random.seed
        let grammar = WebVTTGrammar()
        var failures = 0
        var withCues = 0
        var withBlocks = 0
        var rejected = 0
        for round in 0..<6000 where failures < 5 {
            let bytes = grammar.document(using: &random)
            let maxCues = [Int.max, Int.max, Int.max, 0, 1, 2, 3, Int.random(in: 0...12, using: &random), -1]
                .randomElement(using: &random) ?? .max
            if !Self.compare(bytes, maxCues: maxCues, "seed \(seed), round \(round)") { failures += 1 }
            switch Self.outcome({ () throws(SubtitleError) in try ReferenceWebVTTParser.parse(bytes) }) {
            case .success(let document):
                if !document.cues.isEmpty { withCues += 1 }
                if !document.blocks.isEmpty { withBlocks += 1 }
            case .failure: rejected += 1
            }
        }
        // The grammar really reaches every side: cues, blocks before them, and documents the parser rejects
        // (counted over a whole run, so only when no mismatch cut it short).
        if failures == 0 {
            #expect(withCues > 1200, "seed \(seed)")
            #expect(withBlocks > 900, "seed \(seed)")
            #expect(rejected > 900, "seed \(seed)")
        }
    }

    @Test func everyFixtureParsesAsThePreviousParserParsedIt() throws {
        let repository = Fixtures.repositoryRoot
        var folders = [repository.appendingPathComponent("Tests/Fixtures")]
        // The shared corpus sits beside the repository (as CI lays it out); without it only ours are read.
        let shared = repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        if FileManager.default.fileExists(atPath: shared.path) {
            folders.append(shared)
        } else {
            print("WebVTTParserDifferentialTests: \(shared.path) not found, shared fixtures SKIPPED")
        }
        var count = 0
        for folder in folders {
            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "vtt" || url.pathExtension == "srt" else { continue }
                let bytes = Array(try Data(contentsOf: url))
                count += 1
                for maxCues in [Int.max, 0, 1, 2, 7] {
                    _ = Self.compare(bytes, maxCues: maxCues, url.path)
                }
                // Cut anywhere: a truncated download must read as the previous parser read it too.
                for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 40)) {
                    _ = Self.compare(Array(bytes.prefix(cut)), maxCues: .max, "\(url.path) cut at \(cut)")
                }
            }
        }
        #expect(count >= 30)
    }

    @Test func theColdStartSidecarParsesAsThePreviousParserParsedIt() {
        // bench/cold_start.py's make_sidecar, in small: numbered cues, two payload lines each.
        var text = "WEBVTT\n\n"
        for cue in 0..<300 {
            let start = Int64(cue) * 4800
            text += "\(cue + 1)\n\(WebVTTTimestamp.string(start)) --> \(WebVTTTimestamp.string(start + 3600))\n"
            text += "Line \(cue) of the dialogue, as a subtitle says it\n<i>and its second line</i>\n\n"
        }
        #expect(Self.compare(Array(text.utf8), maxCues: .max, "sidecar"))
        #expect((try? WebVTTDocument.parse(Array(text.utf8)))?.cues.count == 300)
    }
}
