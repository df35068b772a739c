import Testing
import TestSupport
@testable import HLS

/// Every TTML/DFXP fixture against an independent converter: ttconv's WebVTT, committed in golden/ttconv by
/// Tests/Fixtures/subtitles/make-ttml-goldens.sh. What is on screen (the text lines, markup removed and
/// character references decoded) must be the same at every instant, to the millisecond, except where a
/// difference is declared below for that fixture: its exact span and what each side shows in it, with the
/// rule that justifies ours. Any other difference fails, and so does a declared one that no longer occurs.
@Suite struct TTMLOracleTests {
    /// One declared difference: the exact span, in ms, and what each side shows during it, so a change
    /// of either side inside the span fails as surely as one outside it.
    struct Allowed: Sendable, CustomStringConvertible {
        let fixture: String
        let from: Int64
        let to: Int64
        let ours: [String]
        let theirs: [String]
        let why: String
        var description: String { "\(fixture) \(from)-\(to) ms" }
        var difference: Difference { Difference(from: from, to: to, ours: ours, theirs: theirs) }
    }

    static let fixtures = ["imsc1-ebu-tt-d.ttml", "netflix-dfxp.dfxp", "frames-and-offsets.ttml", "dfxp-2006-04.xml",
                           "every-construct.ttml"]

    static let subFrames = "Avec une sous-image."
    static let fifteenFrames = "Quinze images après une seconde."
    static let defaultTicks = "Tic par défaut : image fois sous-image."
    static let allowed: [Allowed] = [
        // 145145000t at 10^7 ticks/s is 14514.5 ms: we round half up (as MP4TextTrackReader does), ttconv
        // half to even. TTML1 §10.3.1 times are exact; WebVTT (§4.1) needs whole ms, the tie rule is ours.
        Allowed(fixture: "netflix-dfxp.dfxp", from: 14_514, to: 14_515, ours: ["Somewhere safe, I promise."], theirs: [],
                why: "half-millisecond tie rounded up"),
        // "00:00:03:10.1" (to 4 s): frames with sub-frames, a clock-time form of TTML1 §10.3.1; ttconv rejects
        // it and drops the begin (the cue starts at 0), we read 3 s + 10.5 frames at 30000/1001 fps = 3350 ms.
        // Beside it, 00:00:01:15 (to 2 s) at 30000/1001 fps is 1500.5 ms: the same tie as above, 1501 for us.
        Allowed(fixture: "frames-and-offsets.ttml", from: 0, to: 1_500, ours: [], theirs: [subFrames],
                why: "sub-frames in a clock time (TTML1 §10.3.1)"),
        Allowed(fixture: "frames-and-offsets.ttml", from: 1_500, to: 1_501, ours: [], theirs: [subFrames, fifteenFrames],
                why: "sub-frames in a clock time, and a half-millisecond tie rounded up"),
        Allowed(fixture: "frames-and-offsets.ttml", from: 1_501, to: 2_000, ours: [fifteenFrames], theirs: [subFrames, fifteenFrames],
                why: "sub-frames in a clock time (TTML1 §10.3.1)"),
        Allowed(fixture: "frames-and-offsets.ttml", from: 2_000, to: 3_350, ours: [], theirs: [subFrames],
                why: "sub-frames in a clock time (TTML1 §10.3.1)"),
        // 330t-360t without ttp:tickRate but with a frame rate: TTML1 §6.2.10 makes the tick rate the frame
        // rate times the sub-frame rate (30000/1001 * 2), so 5506-6006 ms; ttconv uses 1 tick per second.
        Allowed(fixture: "frames-and-offsets.ttml", from: 5_506, to: 6_006, ours: ["Image cent cinquante.", defaultTicks],
                theirs: ["Image cent cinquante."], why: "default tickRate with a frame rate (TTML1 §6.2.10)"),
        Allowed(fixture: "frames-and-offsets.ttml", from: 330_000, to: 360_000, ours: [], theirs: [defaultTicks],
                why: "default tickRate with a frame rate (TTML1 §6.2.10)"),
        // A seq <div begin="32s"> in <body begin="1s">: its children run 33-34 s and 34-36 s, and its implicit
        // end is its last child's (TTML1 §10.4); ttconv ends it at 35 s, 3 s after 32 s without the body's
        // 1 s (with an explicit end on the div it gives 34-36 s too).
        Allowed(fixture: "every-construct.ttml", from: 35_000, to: 36_000, ours: ["seq second"], theirs: [],
                why: "implicit end of a seq div (TTML1 §10.4)"),
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
        // Exactly the declared differences, span for span and text for text: no other, none missing.
        let declared = Self.allowed.filter { $0.fixture == name }.map(\.difference)
        let found = Self.differences(ours: ours, theirs: theirs)
        #expect(found == declared)
    }

    @Test func everyDeclaredDifferenceNamesAKnownFixtureAndARule() {
        for allowance in Self.allowed {
            #expect(Self.fixtures.contains(allowance.fixture))
            #expect(allowance.from < allowance.to && !allowance.why.isEmpty)
        }
    }

    @Test func aCueMovedInsideADeclaredSpanNoLongerMatchesTheDeclaredDifferences() throws {
        // "Quinze images" starting at 1800 ms instead of 1501 stays inside 0-3350 ms, where the sub-frames
        // difference is: a span-only allowance would pass it, the exact declaration does not.
        var ours = try TTMLConverter.webVTT(from: fixture("subtitles/frames-and-offsets.ttml")).cues
        let theirs = try WebVTTDocument.parse(fixture("golden/ttconv/frames-and-offsets.ttml.vtt")).cues
        let index = try #require(ours.firstIndex { $0.payload.map(Self.shown) == [Self.fifteenFrames] })
        #expect(ours[index].start == 1501)
        ours[index].start = 1800
        let found = Self.differences(ours: ours, theirs: theirs)
        // Every difference still lies inside the spans this fixture once declared as wide allowances...
        let wideSpans: [(from: Int64, to: Int64)] = [(0, 3350), (5506, 6006), (330_000, 360_000)]
        #expect(found.allSatisfy { difference in wideSpans.contains { $0.from <= difference.from && difference.to <= $0.to } })
        // ...but not in the exact declaration.
        let declared = Self.allowed.filter { $0.fixture == "frames-and-offsets.ttml" }.map(\.difference)
        #expect(found != declared)
    }
}
