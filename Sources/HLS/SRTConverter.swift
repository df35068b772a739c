/// Converts SubRip (SRT) subtitles to WebVTT.
///
/// The charset is detected and converted to UTF-8 (`TextEncoding`), then, as HLS-NOTES.md describes,
/// commas become dots inside timing lines only and the result is read by the WebVTT parser. SRT cue
/// numbers are dropped rather than kept as cue identifiers: players ignore them, and a cue repeated in two
/// HLS segments would otherwise carry the same identifier twice. SRT coordinates after the end time are
/// dropped. Markup (`<i>`, `<font>`) passes through. Cues need the full `hh:mm:ss,ttt` form (a missing
/// separator line before a cue number is tolerated); a timing line WebVTT cannot read drops its cue.
public enum SRTConverter {
    /// The WebVTT form of an SRT file; empty input gives an empty document, text without any cue fails.
    /// Reading stops after `maxCues` cues.
    public static func webVTT(from bytes: [UInt8], maxCues: Int = .max) throws(SubtitleError) -> WebVTTDocument {
        let text = TextEncoding.utf8Bytes(from: bytes)
        let lines = WebVTTParser.lineRanges(text, from: 0)
        var converted: [UInt8] = Array("WEBVTT\n\n".utf8)
        converted.reserveCapacity(text.count + 16)
        var previousWasText = false
        for (number, line) in lines.enumerated() {
            let slice = text[line]
            if slice.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                // A line of spaces ends an SRT cue; WebVTT only accepts a truly empty line.
                converted.append(0x0A)
                previousWasText = false
                continue
            }
            if isTimingLine(slice) {
                converted.append(contentsOf: slice.map { $0 == UInt8(ascii: ",") ? UInt8(ascii: ".") : $0 })
            } else {
                // A cue number right after text, with no blank line between: the file skipped the separator.
                let nextIsTiming = number + 1 < lines.count && isTimingLine(text[lines[number + 1]])
                if previousWasText, nextIsTiming, slice.allSatisfy({ (0x30...0x39).contains($0) }) {
                    converted.append(0x0A)
                }
                converted.append(contentsOf: slice)
            }
            converted.append(0x0A)
            previousWasText = true
        }
        var parser = WebVTTParser(converted, maxCues: maxCues)
        var document = try parser.parse()
        document.blocks = []
        for index in document.cues.indices {
            document.cues[index].id = nil
            // SRT's `X1:... Y2:...` coordinates are not WebVTT settings.
            document.cues[index].settings = ""
        }
        let hasText = text.contains { !(0x09...0x0D).contains($0) && $0 != 0x20 }
        if document.cues.isEmpty && hasText { throw .noSubRipCues }
        return document
    }

    private static func isTimingLine(_ line: ArraySlice<UInt8>) -> Bool {
        line.firstRange(of: "-->".utf8) != nil
    }
}
