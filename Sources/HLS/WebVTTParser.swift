/// The W3C WebVTT parser (§6.1 "WebVTT parser algorithm") over UTF-8 bytes, lenient where the spec is:
/// a block with a bad timing line is dropped, never fatal; only a missing `WEBVTT` signature fails.
///
/// One pass, no line table: each line is found where the previous one ended and its `-->` noticed while
/// its end is looked for; a timing line is read once, its timings first; a String is made only for text
/// the document keeps.
struct WebVTTParser {
    private let bytes: [UInt8]
    /// Parsing stops once this many cues are read: a caller that caps cues never holds more.
    private let maxCues: Int
    /// Where the next unread line starts.
    private var position: Int
    /// Whether the whole file is valid UTF-8 (checked once): then a cue's text can stay a range of it.
    private let isValidUTF8: Bool

    init(_ bytes: [UInt8], maxCues: Int = .max) {
        self.bytes = bytes
        self.maxCues = max(0, maxCues)
        // §6.1: an optional UTF-8 BOM precedes the signature.
        position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        isValidUTF8 = (try? UTF8Span(validating: bytes.span)) != nil
    }

    mutating func parse() throws(SubtitleError) -> WebVTTDocument {
        // Every reader below takes the bytes as a Span: bounds-checked, with no reference counting per line.
        let bytes = self.bytes
        return try parse(bytes.span)
    }

    private mutating func parse(_ bytes: Span<UInt8>) throws(SubtitleError) -> WebVTTDocument {
        guard let first = nextLine(bytes), isSignature(bytes, first.range) else { throw .missingWebVTTSignature }
        position = first.next
        var document = WebVTTDocument(headerText: text(bytes, first.range.dropFirst(6)))
        // §6.1: the header runs to the first blank line; a timing line there ends it and starts a cue.
        while let line = nextLine(bytes), !line.isEmpty, !line.hasArrow {
            document.headerLines.append(text(bytes, line.range))
            position = line.next
        }
        // A cue takes 64 bytes or more in practice (the 2-hour sidecar of bench/cold_start.py, 110): room
        // for that many spares the array's regrowth, which costs a copy and the allocator's consolidation.
        document.cues.reserveCapacity(min(maxCues, bytes.count / 64))
        while document.cues.count < maxCues, position < bytes.count {
            collectBlock(bytes, into: &document)
        }
        return document
    }

    /// §6.1 "collect a WebVTT block" from `position`: any line containing `-->` is a timing line; one on
    /// the first line, or on the second after an identifier, opens a cue; anywhere else it ends this block
    /// and opens the next. A blank line at `position` is read and nothing else.
    private mutating func collectBlock(_ bytes: Span<UInt8>, into document: inout WebVTTDocument) {
        // Each of the first two lines is tried as a timing line before it is split off, so a cue's timing
        // line is read once; only lines that are not one are scanned as plain lines.
        if let timing = timingLine(bytes) {
            position = timing.line.next
            collectCue(bytes, id: nil, timing: timing, into: &document)
            return
        }
        guard let first = nextLine(bytes) else { return }
        position = first.next
        if first.isEmpty { return }
        if first.hasArrow {
            // A timing line whose timings do not parse: its cue is dropped.
            skipBlockLines(bytes)
            return
        }
        if let timing = timingLine(bytes) {
            position = timing.line.next
            collectCue(bytes, id: first.range, timing: timing, into: &document)
            return
        }
        if let second = nextLine(bytes), second.hasArrow {
            // The same after an identifier.
            position = second.next
            skipBlockLines(bytes)
            return
        }
        // §6.1: style sheets and regions after the first cue are ignored; NOTEs are comments anywhere.
        guard document.cues.isEmpty, let kind = blockKind(bytes, first.range) else {
            skipBlockLines(bytes)
            return
        }
        var lines = [text(bytes, first.range)]
        while let line = nextBlockLine(bytes) { lines.append(text(bytes, line)) }
        document.blocks.append(WebVTTBlock(kind: kind, lines: lines))
    }

    /// The payload after a timing line whose timings parsed, as the cue's text (its lines joined by LF).
    /// Lines that a lone LF separates are one run of the bytes: in a file that is valid UTF-8, a cue
    /// that is one run keeps its text as that range of the file (no String, no copy); otherwise each run
    /// is made a String in one piece, and only a CR or CRLF between two lines starts another run.
    private mutating func collectCue(_ bytes: Span<UInt8>, id: Range<Int>?, timing: Timing,
                                     into document: inout WebVTTDocument) {
        var storage = WebVTTCue.Storage.string("")
        if let first = nextBlockLine(bytes) {
            var joined: String?
            var run = first
            while let line = nextBlockLine(bytes) {
                if line.lowerBound == run.upperBound + 1, bytes[run.upperBound] == 0x0A {
                    run = run.lowerBound..<line.upperBound
                    continue
                }
                Self.append(text(bytes, run), to: &joined)
                run = line
            }
            if joined == nil, isValidUTF8 {
                storage = .bytes(self.bytes, run)
            } else {
                Self.append(text(bytes, run), to: &joined)
                storage = .string(joined ?? "")
            }
        }
        let settings = timing.settings.isEmpty ? "" : text(bytes, timing.settings)
        document.cues.append(WebVTTCue(id: id.map { text(bytes, $0) }, start: timing.start, end: timing.end,
                                       settings: settings, storage: storage))
    }

    /// Adds a run of lines to a cue's text, after an LF when the text has some already.
    private static func append(_ run: String, to joined: inout String?) {
        if var text = joined {
            joined = nil
            text.append("\n")
            text.append(run)
            joined = text
        } else {
            joined = run
        }
    }

    /// The next line of the current block: nil at its end, which is a blank line (read) or a timing
    /// line (left for the next block), or the end of the bytes.
    private mutating func nextBlockLine(_ bytes: Span<UInt8>) -> Range<Int>? {
        guard let line = nextLine(bytes), !line.hasArrow else { return nil }
        position = line.next
        return line.isEmpty ? nil : line.range
    }

    private mutating func skipBlockLines(_ bytes: Span<UInt8>) {
        while nextBlockLine(bytes) != nil {}
    }

    private func nextLine(_ bytes: Span<UInt8>) -> WebVTTLine? {
        WebVTTLine(in: bytes, at: position)
    }

    /// A timing line's line, times and settings (trimmed, still bytes).
    private struct Timing {
        var line: WebVTTLine
        var start: Int64
        var end: Int64
        var settings: Range<Int>
    }

    /// The line at `position` when it starts with timings that parse, §6.5 "collect WebVTT cue timings
    /// and settings": start, `-->`, end, then settings. Such a line holds `-->`, so it is a timing line;
    /// nil for any other line, with an arrow or without. Timestamps and the whitespace around them never
    /// run into a line break, so the timings are read before the line's end is known and no byte twice.
    private func timingLine(_ bytes: Span<UInt8>) -> Timing? {
        var index = Self.skipWhitespace(bytes, from: position)
        guard let start = WebVTTTimestamp.parse(bytes, at: &index, end: bytes.count) else { return nil }
        index = Self.skipWhitespace(bytes, from: index)
        guard bytes.count - index >= 3, bytes[index] == UInt8(ascii: "-"), bytes[index + 1] == UInt8(ascii: "-"),
              bytes[index + 2] == UInt8(ascii: ">") else { return nil }
        index = Self.skipWhitespace(bytes, from: index + 3)
        guard let end = WebVTTTimestamp.parse(bytes, at: &index, end: bytes.count) else { return nil }
        index = Self.skipWhitespace(bytes, from: index)
        guard let line = WebVTTLine(in: bytes, at: position, resumingAt: index, arrowSeen: true) else { return nil }
        var settingsEnd = line.range.upperBound
        while settingsEnd > index, Self.isWhitespace(bytes[settingsEnd - 1]) { settingsEnd -= 1 }
        return Timing(line: line, start: start, end: end, settings: index..<settingsEnd)
    }

    private func isSignature(_ bytes: Span<UInt8>, _ line: Range<Int>) -> Bool {
        Self.startsWithKeyword("WEBVTT", bytes, line)
    }

    private func blockKind(_ bytes: Span<UInt8>, _ line: Range<Int>) -> WebVTTBlock.Kind? {
        if Self.startsWithKeyword("NOTE", bytes, line) { return .note }
        if Self.startsWithKeyword("STYLE", bytes, line) { return .style }
        if Self.startsWithKeyword("REGION", bytes, line) { return .region }
        return nil
    }

    /// §6.1: a keyword (`WEBVTT`, `NOTE`, `STYLE`, `REGION`) counts when a space, a tab or the line's end follows it.
    private static func startsWithKeyword(_ keyword: String, _ bytes: Span<UInt8>, _ line: Range<Int>) -> Bool {
        var position = line.lowerBound
        for byte in keyword.utf8 {
            guard position < line.upperBound, bytes[position] == byte else { return false }
            position += 1
        }
        guard position < line.upperBound else { return true }
        return bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t")
    }

    /// The text of `range`: valid UTF-8 (nearly every file) is copied once validated; anything else is
    /// decoded with U+FFFD for each bad sequence, as `String(decoding:as:)` does.
    private func text(_ bytes: Span<UInt8>, _ range: Range<Int>) -> String {
        if let valid = try? UTF8Span(validating: bytes.extracting(range)) { return String(copying: valid) }
        return String(decoding: self.bytes[range], as: UTF8.self)
    }

    private static func skipWhitespace(_ bytes: Span<UInt8>, from start: Int) -> Int {
        var position = start
        while position < bytes.count, isWhitespace(bytes[position]) { position += 1 }
        return position
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0C
    }

    /// Line ranges split on CRLF, LF or CR (§6.1); a final terminator does not add an empty line.
    static func lineRanges(_ bytes: [UInt8], from start: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var position = start
        let bytes = bytes.span
        while let line = WebVTTLine(in: bytes, at: position) {
            ranges.append(line.range)
            position = line.next
        }
        return ranges
    }
}

extension WebVTTDocument {
    /// Parses a WebVTT file (UTF-8, optional BOM, CRLF/LF/CR). Malformed cues are skipped as the
    /// W3C parser does; only a missing `WEBVTT` signature is an error. Reading stops after `maxCues` cues.
    public static func parse(_ bytes: [UInt8], maxCues: Int = .max) throws(SubtitleError) -> WebVTTDocument {
        var parser = WebVTTParser(bytes, maxCues: maxCues)
        return try parser.parse()
    }
}
