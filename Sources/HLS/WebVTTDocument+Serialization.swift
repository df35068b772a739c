extension WebVTTDocument {
    /// The file as UTF-8 with LF endings: signature, header lines, a blank line, then blocks and cues,
    /// each followed by a blank line.
    ///
    /// Every cue ends with a blank line, the last one too: GStreamer 1.22 drops a segment's last cue otherwise.
    /// Values that would break the syntax are neutralised: line breaks inside a field become spaces, blank
    /// payload lines are left out and `-->` in text is written `--&gt;` (W3C WebVTT §4.2.2 forbids it there).
    public func serialized() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64 + cues.count * 80)
        output.append(contentsOf: "WEBVTT".utf8)
        if let first = headerText.utf8.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t") {
            output.append(UInt8(ascii: " "))
        }
        Self.appendLine(headerText, to: &output)
        // A header line holding `-->` would end the header early (§6.1), so such lines are left out.
        for line in headerLines where !line.isEmpty && !Self.containsArrow(line) {
            Self.appendLine(line, to: &output)
        }
        output.append(0x0A)
        for block in blocks {
            for line in block.lines where !line.isEmpty { Self.appendLine(line, escapingArrows: true, to: &output) }
            output.append(0x0A)
        }
        for cue in cues {
            append(cue, to: &output)
        }
        return output
    }

    private func append(_ cue: WebVTTCue, to output: inout [UInt8]) {
        if let id = cue.id, !id.isEmpty, !Self.containsArrow(id) {
            Self.appendLine(id, to: &output)
        }
        WebVTTTimestamp.append(cue.start, to: &output)
        output.append(contentsOf: " --> ".utf8)
        WebVTTTimestamp.append(cue.end, to: &output)
        if !cue.settings.isEmpty {
            output.append(UInt8(ascii: " "))
            // The timing line holds `-->` anyway, so settings are written as read.
            Self.appendLine(cue.settings, to: &output)
        } else {
            output.append(0x0A)
        }
        // The text's lines are joined by LF and hold no other line break: written whole, as lines.
        switch cue.storage {
        case .string(let text) where !text.isEmpty:
            Self.appendLine(text.utf8, needsRewriting: Self.needsRewriting(text.utf8.span, escapingArrows: true, lineBreaks: false),
                            escapingArrows: true, keepingLineFeeds: true, to: &output)
        case .bytes(let bytes, let range) where !range.isEmpty:
            let text = bytes[range]
            Self.appendLine(text, needsRewriting: Self.needsRewriting(text.span, escapingArrows: true, lineBreaks: false),
                            escapingArrows: true, keepingLineFeeds: true, to: &output)
        default:
            break
        }
        output.append(0x0A)
    }

    /// Appends `text` and an LF; CR or LF inside it become spaces so it stays one line.
    private static func appendLine(_ text: String, escapingArrows: Bool = false, to output: inout [UInt8]) {
        appendLine(text.utf8, needsRewriting: needsRewriting(text.utf8.span, escapingArrows: escapingArrows),
                   escapingArrows: escapingArrows, keepingLineFeeds: false, to: &output)
    }

    /// The same for bytes whose `needsRewriting` is known. With `keepingLineFeeds`, `text` is lines
    /// joined by LF (a cue's text, which holds no CR) and stays so.
    private static func appendLine(
        _ text: some Collection<UInt8>, needsRewriting: Bool, escapingArrows: Bool, keepingLineFeeds: Bool,
        to output: inout [UInt8]
    ) {
        // Most lines need no change: copied in one piece (a cue file is thousands of lines).
        if !needsRewriting {
            output.append(contentsOf: text)
            output.append(0x0A)
            return
        }
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in text {
            switch byte {
            case 0x0A where keepingLineFeeds:
                output.append(byte)
            case 0x0A, 0x0D:
                output.append(UInt8(ascii: " "))
            case UInt8(ascii: ">") where escapingArrows && previous == (UInt8(ascii: "-"), UInt8(ascii: "-")):
                output.append(contentsOf: "&gt;".utf8)
            default:
                output.append(byte)
            }
            previous = (previous.1, byte)
        }
        output.append(0x0A)
    }

    static func containsArrow(_ text: String) -> Bool {
        needsRewriting(text.utf8.span, escapingArrows: true, lineBreaks: false)
    }

    /// Whether a line holds a CR or LF (unless `lineBreaks` is false) or, when escaping arrows, `-->`.
    private static func needsRewriting(_ bytes: Span<UInt8>, escapingArrows: Bool, lineBreaks: Bool = true) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for index in bytes.indices {
            let byte = bytes[index]
            if lineBreaks, byte == 0x0A || byte == 0x0D { return true }
            if escapingArrows, byte == UInt8(ascii: ">"), previous == (UInt8(ascii: "-"), UInt8(ascii: "-")) { return true }
            previous = (previous.1, byte)
        }
        return false
    }

}
