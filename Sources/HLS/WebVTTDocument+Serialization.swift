extension WebVTTDocument {
    /// The file as UTF-8 with LF endings: signature, header lines, a blank line, then blocks and cues,
    /// each followed by a blank line.
    ///
    /// Every cue ends with a blank line, the last one too: GStreamer 1.22 drops a segment's last cue otherwise.
    /// Values that would break the syntax are neutralised: line breaks inside a field become spaces, blank
    /// payload lines are left out and `-->` in text is written `--&gt;` (W3C WebVTT §4.2.2 forbids it there).
    public func serialized() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64 + cues.count * 64)
        output.append(contentsOf: "WEBVTT".utf8)
        if let first = headerText.utf8.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t") {
            output.append(UInt8(ascii: " "))
        }
        appendLine(headerText, to: &output)
        for line in headerLines where !line.isEmpty && !line.contains("-->") {
            appendLine(line, to: &output)
        }
        output.append(0x0A)
        for block in blocks {
            for line in block.lines where !line.isEmpty { appendLine(escapingArrows(line), to: &output) }
            output.append(0x0A)
        }
        for cue in cues {
            append(cue, to: &output)
        }
        return output
    }

    private func append(_ cue: WebVTTCue, to output: inout [UInt8]) {
        if let id = cue.id, !id.isEmpty, !id.contains("-->") {
            appendLine(id, to: &output)
        }
        WebVTTTimestamp.append(cue.start, to: &output)
        output.append(contentsOf: " --> ".utf8)
        WebVTTTimestamp.append(cue.end, to: &output)
        if !cue.settings.isEmpty {
            output.append(UInt8(ascii: " "))
            // The timing line holds `-->` anyway, so settings are written as read.
            appendLine(cue.settings, to: &output)
        } else {
            output.append(0x0A)
        }
        for line in cue.payload where !line.isEmpty {
            appendLine(escapingArrows(line), to: &output)
        }
        output.append(0x0A)
    }

    /// Appends `text` and an LF, with any CR or LF inside it turned into a space so it stays one line.
    private func appendLine(_ text: String, to output: inout [UInt8]) {
        for byte in text.utf8 {
            output.append(byte == 0x0A || byte == 0x0D ? UInt8(ascii: " ") : byte)
        }
        output.append(0x0A)
    }

    private func escapingArrows(_ line: String) -> String {
        line.contains("-->") ? line.replacing("-->", with: "--&gt;") : line
    }
}
