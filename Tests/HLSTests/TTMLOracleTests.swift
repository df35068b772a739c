import Testing
import TestSupport
@testable import HLS

/// Every TTML/DFXP fixture against an independent converter: ttconv's WebVTT, committed in golden/ttconv by
/// Tests/Fixtures/subtitles/make-ttml-goldens.sh. What is on screen (the text lines, markup removed and
/// character references decoded) must be the same at every instant, to the millisecond, except where a
/// difference is declared below for that fixture and time span, with the rule that justifies ours. Any
/// other difference fails, and so does a declared one that no longer occurs.
@Suite struct TTMLOracleTests {
    struct Allowed: Sendable, CustomStringConvertible {
        let fixture: String
        /// The span, in ms, inside which the two may differ.
        let from: Int64
        let to: Int64
        let why: String
        var description: String { "\(fixture) \(from)-\(to) ms" }
    }

    static let fixtures = ["imsc1-ebu-tt-d.ttml", "netflix-dfxp.dfxp", "frames-and-offsets.ttml", "dfxp-2006-04.xml",
                           "every-construct.ttml"]

    static let allowed: [Allowed] = [
        // 145145000t at 10^7 ticks/s is 14514.5 ms: we round half up (as MP4TextTrackReader does), ttconv
        // half to even. TTML1 §10.3.1 times are exact; WebVTT (§4.1) needs whole ms, the tie rule is ours.
        Allowed(fixture: "netflix-dfxp.dfxp", from: 14_514, to: 14_515, why: "half-millisecond tie rounded up"),
        // "00:00:03:10.1": frames with sub-frames, a clock-time form of TTML1 §10.3.1; ttconv rejects it and
        // drops the begin (the cue starts at 0), we read 3 s + 10.5 frames at 30000/1001 fps = 3350 ms.
        Allowed(fixture: "frames-and-offsets.ttml", from: 0, to: 3_350, why: "sub-frames in a clock time (TTML1 §10.3.1)"),
        // 00:00:01:15 at 30000/1001 fps is 1500.5 ms: the same tie as above.
        Allowed(fixture: "frames-and-offsets.ttml", from: 1_500, to: 1_501, why: "half-millisecond tie rounded up"),
        // 330t-360t without ttp:tickRate but with a frame rate: TTML1 §6.2.10 makes the tick rate the frame
        // rate times the sub-frame rate (30000/1001 * 2), so 5506-6006 ms; ttconv uses 1 tick per second.
        Allowed(fixture: "frames-and-offsets.ttml", from: 5_506, to: 6_006, why: "default tickRate with a frame rate (TTML1 §6.2.10)"),
        Allowed(fixture: "frames-and-offsets.ttml", from: 330_000, to: 360_000, why: "default tickRate with a frame rate (TTML1 §6.2.10)"),
        // A seq <div begin="32s"> in <body begin="1s">: its children run 33-34 s and 34-36 s, and its implicit
        // end is its last child's (TTML1 §10.4); ttconv ends it at 35 s, 3 s after 32 s without the body's
        // 1 s (with an explicit end on the div it gives 34-36 s too).
        Allowed(fixture: "every-construct.ttml", from: 35_000, to: 36_000, why: "implicit end of a seq div (TTML1 §10.4)"),
    ]

    /// A span of time with what each side shows during it.
    struct Difference: Equatable, CustomStringConvertible {
        let from: Int64
        let to: Int64
        let ours: [String]
        let theirs: [String]
        var description: String { "\(from)-\(to) ms: ours \(ours) / ttconv \(theirs)" }
    }

    /// WebVTT cue text as shown: tags removed (W3C WebVTT §4.2.2), character references decoded, ends
    /// trimmed. ttconv writes `&` and `<` unescaped where they are text, so only WebVTT's own tags are markup.
    static func shown(_ line: String) -> String {
        var text = line
        let tags = #/</?(?:c|i|b|u|v|lang|ruby|rt)(?:\.[^\s>]*)?(?:\s[^>]*)?>|<\d[\d:.]*>/#
        text.replace(tags, with: "")
        for (reference, character) in [("&lt;", "<"), ("&gt;", ">"), ("&nbsp;", "\u{A0}"), ("&lrm;", "\u{200E}"),
                                       ("&rlm;", "\u{200F}"), ("&quot;", "\""), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: reference, with: character)
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    static func differences(ours: [WebVTTCue], theirs: [WebVTTCue]) -> [Difference] {
        let cuts = Set((ours + theirs).flatMap { [$0.start, $0.end] }).sorted()
        func visible(_ cues: [WebVTTCue], at time: Int64) -> [String] {
            cues.filter { $0.start <= time && time < $0.end }.flatMap { $0.payload.map(shown) }.sorted()
        }
        var found: [Difference] = []
        for (from, to) in zip(cuts, cuts.dropFirst()) {
            let (mine, other) = (visible(ours, at: from), visible(theirs, at: from))
            guard mine != other else { continue }
            if let last = found.last, last.to == from, last.ours == mine, last.theirs == other {
                found[found.count - 1] = Difference(from: last.from, to: to, ours: mine, theirs: other)
            } else {
                found.append(Difference(from: from, to: to, ours: mine, theirs: other))
            }
        }
        return found
    }

    @Test(arguments: fixtures) func onScreenTextMatchesTTConvAtEveryMillisecondSaveDeclaredDifferences(_ name: String) throws {
        let ours = try TTMLConverter.webVTT(from: fixture("subtitles/\(name)")).cues
        let theirs = try WebVTTDocument.parse(fixture("golden/ttconv/\(name).vtt")).cues
        #expect(!theirs.isEmpty)
        let declared = Self.allowed.filter { $0.fixture == name }
        let found = Self.differences(ours: ours, theirs: theirs)
        for difference in found {
            #expect(declared.contains { $0.from <= difference.from && difference.to <= $0.to }, "undeclared: \(difference)")
        }
        for allowance in declared {
            #expect(found.contains { allowance.from <= $0.from && $0.to <= allowance.to }, "declared but not found: \(allowance)")
        }
    }

    @Test func everyDeclaredDifferenceNamesAKnownFixtureAndARule() {
        for allowance in Self.allowed {
            #expect(Self.fixtures.contains(allowance.fixture))
            #expect(allowance.from < allowance.to && !allowance.why.isEmpty)
        }
    }
}
