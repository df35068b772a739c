import Foundation
@testable import HLS
import TestSupport
import Testing

/// The WebVTT parser against the previous implementation (ReferenceWebVTTParser), document for document:
/// random documents from a grammar of the pieces parsers get wrong, every WebVTT fixture, every cap.
@Suite(.serialized) struct WebVTTParserDifferentialTests {
    /// The parser's answer in a comparable form: the document, or the error.
    private static func outcome(_ parse: () throws(SubtitleError) -> WebVTTDocument) -> Result<WebVTTDocument, SubtitleError> {
        do throws(SubtitleError) { return .success(try parse()) } catch { return .failure(error) }
    }

    /// What differs between the two parsers on `bytes` (documents or their lineRanges), nil when nothing
    /// does; `expected` is the previous parser's answer.
    private static func mismatch(_ bytes: [UInt8], maxCues: Int, _ context: @autoclosure () -> String)
        -> (mismatch: String?, expected: Result<WebVTTDocument, SubtitleError>) {
        let expected = outcome { () throws(SubtitleError) in try ReferenceWebVTTParser.parse(bytes, maxCues: maxCues) }
        let actual = outcome { () throws(SubtitleError) in try WebVTTDocument.parse(bytes, maxCues: maxCues) }
        let lines = WebVTTParser.lineRanges(bytes, from: 0)
        let expectedLines = ReferenceWebVTTParser.lineRanges(bytes, from: 0)
        guard actual != expected || lines != expectedLines else { return (nil, expected) }
        // Grammar documents are short enough to show whole; a fixture is named by its path.
        let input = bytes.count <= 4096 ? "input \(bytes)" : "\(bytes.count) bytes"
        if actual != expected {
            return ("\(context()), maxCues \(maxCues): \(actual) != \(expected), \(input)", expected)
        }
        return ("\(context()): lineRanges \(lines) != \(expectedLines), \(input)", expected)
    }

    // The loops run one test at a time (serialized), each on a thread of its own (`onThread`): seconds of
    // parsing on both cores, or on the task pool, starve the in-process servers of the suites beside them.

    @Test func randomDocumentsParseAsThePreviousParserParsedThem() async throws {
        // HLS_TEST_SEED replays a run; the seed is printed and named in every failure.
        let generator = SeededGenerator()
        let seed = generator.seed
        let (mismatches, withCues, withBlocks, rejected) = try await onThread { () -> ([String], Int, Int, Int) in
            var random = generator
            let grammar = WebVTTGrammar()
            var mismatches: [String] = []
            var withCues = 0
            var withBlocks = 0
            var rejected = 0
            for round in 0..<2000 where mismatches.count < 5 {
                let bytes = grammar.document(using: &random)
                let maxCues = [Int.max, Int.max, Int.max, 0, 1, 2, 3, Int.random(in: 0...12, using: &random), -1]
                    .randomElement(using: &random) ?? .max
                let (mismatch, expected) = Self.mismatch(bytes, maxCues: maxCues, "seed \(seed), round \(round)")
                if let mismatch { mismatches.append(mismatch) }
                switch expected {
                case .success(let document):
                    if !document.cues.isEmpty { withCues += 1 }
                    if !document.blocks.isEmpty { withBlocks += 1 }
                case .failure: rejected += 1
                }
            }
            return (mismatches, withCues, withBlocks, rejected)
        }
        for mismatch in mismatches { Issue.record(Comment(rawValue: mismatch)) }
        // The grammar really reaches every side: cues, blocks before them, and documents the parser rejects
        // (counted over a whole run, so only when no mismatch cut it short).
        if mismatches.isEmpty {
            #expect(withCues > 300, "seed \(seed)")
            #expect(withBlocks > 250, "seed \(seed)")
            #expect(rejected > 250, "seed \(seed)")
        }
    }

    @Test func everyFixtureParsesAsThePreviousParserParsedIt() async throws {
        let repository = Fixtures.repositoryRoot
        var folders = [repository.appendingPathComponent("Tests/Fixtures")]
        // The shared corpus sits beside the repository (as CI lays it out); without it only ours are read.
        let shared = repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        if FileManager.default.fileExists(atPath: shared.path) {
            folders.append(shared)
        } else {
            print("WebVTTParserDifferentialTests: \(shared.path) not found, shared fixtures SKIPPED")
        }
        var files: [(path: String, bytes: [UInt8])] = []
        for folder in folders {
            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "vtt" || url.pathExtension == "srt" else { continue }
                files.append((url.path, Array(try Data(contentsOf: url))))
            }
        }
        #expect(files.count >= 30)
        let inputs = files
        let mismatches = try await onThread { () -> [String] in
            var mismatches: [String] = []
            for (path, bytes) in inputs {
                for maxCues in [Int.max, 0, 1, 2, 7] {
                    if let mismatch = Self.mismatch(bytes, maxCues: maxCues, path).mismatch { mismatches.append(mismatch) }
                }
                // Cut anywhere: a truncated download must read as the previous parser read it too. Twenty
                // cuts of a small file, four of a large one (the 2-hour fixtures), whose cuts read alike.
                let cuts = bytes.count <= 16_384 ? 20 : 4
                for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / cuts)) {
                    if let mismatch = Self.mismatch(Array(bytes.prefix(cut)), maxCues: .max, "\(path) cut at \(cut)").mismatch {
                        mismatches.append(mismatch)
                    }
                }
            }
            return mismatches
        }
        for mismatch in mismatches.prefix(10) { Issue.record(Comment(rawValue: mismatch)) }
        #expect(mismatches.count == 0)
    }

    @Test func theColdStartSidecarParsesAsThePreviousParserParsedIt() {
        // bench/cold_start.py's make_sidecar, in small: numbered cues, two payload lines each.
        var text = "WEBVTT\n\n"
        for cue in 0..<300 {
            let start = Int64(cue) * 4800
            text += "\(cue + 1)\n\(WebVTTTimestamp.string(start)) --> \(WebVTTTimestamp.string(start + 3600))\n"
            text += "Line \(cue) of the dialogue, as a subtitle says it\n<i>and its second line</i>\n\n"
        }
        #expect(Self.mismatch(Array(text.utf8), maxCues: .max, "sidecar").mismatch == nil)
        #expect((try? WebVTTDocument.parse(Array(text.utf8)))?.cues.count == 300)
    }
}
