@testable import HLS

// The WebVTT parser and timestamp reader as they were before the single-pass parser (WebVTTParser.swift),
// kept verbatim as the oracle WebVTTParserDifferentialTests compares the new one with, document for
// document. Test-only: nothing in Sources uses it. Change it only to follow a deliberate change of behaviour.

/// The previous line-table WebVTT parser (W3C WebVTT §6.1), kept as an oracle.
struct ReferenceWebVTTParser {
    private let bytes: [UInt8]
    private let lines: [Range<Int>]
    /// Parsing stops once this many cues are read: a caller that caps cues never holds more.
    private let maxCues: Int
    private var index = 0

    init(_ bytes: [UInt8], maxCues: Int = .max) {
        self.bytes = bytes
        self.maxCues = max(0, maxCues)
        // §6.1: an optional UTF-8 BOM precedes the signature.
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        self.lines = ReferenceWebVTTParser.lineRanges(bytes, from: start)
    }

    mutating func parse() throws(SubtitleError) -> WebVTTDocument {
        guard let firstLine = lines.first, isSignature(firstLine) else { throw .missingWebVTTSignature }
        var document = WebVTTDocument(headerText: text(firstLine.dropFirst(6)))
        index = 1
        // §6.1: the header runs to the first blank line; a timing line there ends it and starts a cue.
        while index < lines.count, !lines[index].isEmpty, !containsArrow(lines[index]) {
            document.headerLines.append(text(lines[index]))
            index += 1
        }
        var seenCue = false
        while index < lines.count, document.cues.count < maxCues {
            if lines[index].isEmpty {
                index += 1
                continue
            }
            switch collectBlock() {
            case .cue(let cue):
                document.cues.append(cue)
                seenCue = true
            case .block(let block):
                // §6.1: style sheets and regions after the first cue are ignored; NOTEs are comments anywhere.
                if !seenCue { document.blocks.append(block) }
            case .ignored:
                break
            }
        }
        return document
    }

    private enum Block {
        case cue(WebVTTCue)
        case block(WebVTTBlock)
        case ignored
    }

    /// §6.1 "collect a WebVTT block": any line containing `-->` is a timing line; one on the first line,
    /// or on the second after an identifier, opens a cue; anywhere else it ends this block and opens the next.
    private mutating func collectBlock() -> Block {
        var lineCount = 0
        var seenArrow = false
        var buffer: [Range<Int>] = []
        var cue: WebVTTCue?
        while index < lines.count {
            let line = lines[index]
            lineCount += 1
            if containsArrow(line) {
                guard lineCount == 1 || (lineCount == 2 && !seenArrow) else { break }
                seenArrow = true
                index += 1
                cue = parseTiming(line).map { timing in
                    WebVTTCue(id: buffer.first.map(text), start: timing.start, end: timing.end,
                              settings: timing.settings, payload: [])
                }
                buffer = []
                continue
            }
            index += 1
            if line.isEmpty { break }
            buffer.append(line)
        }
        if var cue {
            cue.payload = buffer.map(text)
            return .cue(cue)
        }
        guard !seenArrow, let first = buffer.first, let kind = blockKind(first) else { return .ignored }
        return .block(WebVTTBlock(kind: kind, lines: buffer.map(text)))
    }

    /// §6.5 "collect WebVTT cue timings and settings": start, `-->`, end, then settings.
    private func parseTiming(_ line: Range<Int>) -> (start: Int64, end: Int64, settings: String)? {
        let slice = bytes[line]
        var position = skipWhitespace(slice, from: slice.startIndex)
        guard let start = ReferenceWebVTTTimestamp.parse(slice, at: &position) else { return nil }
        position = skipWhitespace(slice, from: position)
        guard slice[position...].starts(with: "-->".utf8) else { return nil }
        position = skipWhitespace(slice, from: position + 3)
        guard let end = ReferenceWebVTTTimestamp.parse(slice, at: &position) else { return nil }
        var settingsEnd = slice.endIndex
        position = skipWhitespace(slice, from: position)
        while settingsEnd > position, Self.isWhitespace(slice[settingsEnd - 1]) { settingsEnd -= 1 }
        return (start, end, text(position..<settingsEnd))
    }

    private func isSignature(_ line: Range<Int>) -> Bool {
        let slice = bytes[line]
        guard slice.starts(with: "WEBVTT".utf8) else { return false }
        // §6.1: the signature is followed by a space, a tab or the end of the line.
        let after = slice.dropFirst(6).first
        return after == nil || after == UInt8(ascii: " ") || after == UInt8(ascii: "\t")
    }

    private func blockKind(_ line: Range<Int>) -> WebVTTBlock.Kind? {
        let keywords: [(String, WebVTTBlock.Kind)] = [("NOTE", .note), ("STYLE", .style), ("REGION", .region)]
        let slice = bytes[line]
        for (keyword, kind) in keywords where slice.starts(with: keyword.utf8) {
            let after = slice.dropFirst(keyword.utf8.count).first
            if after == nil || after == UInt8(ascii: " ") || after == UInt8(ascii: "\t") { return kind }
        }
        return nil
    }

    private func containsArrow(_ line: Range<Int>) -> Bool {
        guard line.count >= 3 else { return false }
        var position = line.lowerBound
        while position + 2 < line.upperBound {
            if bytes[position] == UInt8(ascii: "-"), bytes[position + 1] == UInt8(ascii: "-"),
               bytes[position + 2] == UInt8(ascii: ">") { return true }
            position += 1
        }
        return false
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private func skipWhitespace(_ slice: ArraySlice<UInt8>, from start: Int) -> Int {
        var position = start
        while position < slice.endIndex, Self.isWhitespace(slice[position]) { position += 1 }
        return position
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0C
    }

    /// Line ranges split on CRLF, LF or CR (§6.1); a final terminator does not add an empty line.
    static func lineRanges(_ bytes: [UInt8], from start: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var lineStart = start
        var position = start
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x0A || byte == 0x0D {
                ranges.append(lineStart..<position)
                position += (byte == 0x0D && position + 1 < bytes.count && bytes[position + 1] == 0x0A) ? 2 : 1
                lineStart = position
            } else {
                position += 1
            }
        }
        if lineStart < bytes.count { ranges.append(lineStart..<bytes.count) }
        return ranges
    }
}

/// The previous timestamp reader (§6.5), kept as an oracle with the parser above.
enum ReferenceWebVTTTimestamp {
    /// Parses a timestamp starting at `index` in `line` and moves `index` past it; nil when malformed.
    ///
    /// W3C WebVTT §6.5 "collect a WebVTT timestamp": hours are any number of digits, minutes and seconds
    /// exactly two (at most 59), the fraction exactly three. Hours that overflow Int64 are malformed.
    static func parse(_ line: ArraySlice<UInt8>, at index: inout Int) -> Int64? {
        guard let first = digits(line, at: &index) else { return nil }
        // §6.5: a first field that is not exactly two digits, or exceeds 59, can only be hours.
        let firstIsHours = first.count != 2 || first.value > 59
        guard next(line, at: &index, is: ":"), let second = digits(line, at: &index), second.count == 2 else {
            return nil
        }
        var hours: Int64 = 0
        var minutes = first.value
        var seconds = second.value
        if firstIsHours || (index < line.endIndex && line[index] == UInt8(ascii: ":")) {
            guard next(line, at: &index, is: ":"), let third = digits(line, at: &index), third.count == 2 else {
                return nil
            }
            (hours, minutes, seconds) = (first.value, second.value, third.value)
        }
        guard next(line, at: &index, is: "."), let fraction = digits(line, at: &index), fraction.count == 3,
              minutes <= 59, seconds <= 59 else { return nil }
        let (hourMilliseconds, overflow) = hours.multipliedReportingOverflow(by: 3_600_000)
        guard !overflow else { return nil }
        let (total, sumOverflow) = hourMilliseconds.addingReportingOverflow(minutes * 60_000 + seconds * 1000 + fraction.value)
        return sumOverflow ? nil : total
    }

    private static func next(_ line: ArraySlice<UInt8>, at index: inout Int, is character: Unicode.Scalar) -> Bool {
        guard index < line.endIndex, line[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// A run of ASCII digits: its value (nil on Int64 overflow) and how many digits it had.
    private static func digits(_ line: ArraySlice<UInt8>, at index: inout Int) -> (value: Int64, count: Int)? {
        var value: Int64 = 0
        var count = 0
        var overflowed = false
        while index < line.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[index]) {
            let digit = Int64(line[index] &- UInt8(ascii: "0"))
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(digit)
            overflowed = overflowed || overflowA || overflowB
            value = sum
            count += 1
            index += 1
        }
        guard count > 0, !overflowed else { return nil }
        return (value, count)
    }
}

extension ReferenceWebVTTParser {
    /// What `WebVTTDocument.parse` returned before the single-pass parser.
    static func parse(_ bytes: [UInt8], maxCues: Int = .max) throws(SubtitleError) -> WebVTTDocument {
        var parser = ReferenceWebVTTParser(bytes, maxCues: maxCues)
        return try parser.parse()
    }
}
