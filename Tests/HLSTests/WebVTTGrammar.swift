import Foundation
import TestSupport

/// Random WebVTT-ish documents built from the pieces W3C WebVTT §6.1 parsers get wrong.
struct WebVTTGrammar {
    private static let lineEnds = ["\n", "\n", "\n", "\r\n", "\r\n", "\r", "\n\r", "\r\r\n"]
    private static let spaces = ["", "", " ", "  ", "\t", "\u{0C}", " \t "]

    /// One document: bytes, ready to parse.
    func document(using random: inout SeededGenerator) -> [UInt8] {
        var lineEnd = Self.lineEnds.randomElement(using: &random) ?? "\n"
        var bytes: [UInt8] = []
        func line(_ text: String, _ random: inout SeededGenerator) {
            bytes += Array(text.utf8)
            // Mixed line endings: now and then a line ends differently from its neighbours.
            if Int.random(in: 0..<8, using: &random) == 0 { lineEnd = Self.lineEnds.randomElement(using: &random) ?? "\n" }
            bytes += Array(lineEnd.utf8)
        }
        switch Int.random(in: 0..<20, using: &random) {
        case 0, 1, 2, 3: bytes += [0xEF, 0xBB, 0xBF]
        case 4: bytes += [0xEF, 0xBB]
        case 5: bytes += [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF]
        default: break
        }
        line(Int.random(in: 0..<4, using: &random) == 0 ? signature(using: &random) : "WEBVTT", &random)
        for _ in 0..<Int.random(in: 0...3, using: &random) { line(headerLine(using: &random), &random) }
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            switch Int.random(in: 0..<12, using: &random) {
            case 0: line("", &random)
            case 1: line(Self.spaces.randomElement(using: &random) ?? " ", &random)
            case 2, 3: for text in block(using: &random) { line(text, &random) }
            default: for text in cue(using: &random) { line(text, &random) }
            }
            if Int.random(in: 0..<5, using: &random) != 0 { line("", &random) }
        }
        if Bool.random(using: &random) { bytes.removeLast(min(bytes.count, lineEnd.utf8.count)) }
        // Raw bytes: non-UTF-8, stray CRs, truncation in the middle of anything.
        for _ in 0..<Int.random(in: 0...2, using: &random) where !bytes.isEmpty {
            // Mostly past the signature, so most documents still have one.
            let low = bytes.count > 10 && Int.random(in: 0..<10, using: &random) != 0 ? 10 : 0
            let position = Int.random(in: low..<bytes.count, using: &random)
            let junk: [[UInt8]] = [[0xFF], [0xC3], [0xE2, 0x82], [0xC0, 0xAF], [0x0D], [0x00], [0xED, 0xA0, 0x80]]
            bytes.insert(contentsOf: junk.randomElement(using: &random) ?? [0xFF], at: position)
        }
        if Int.random(in: 0..<6, using: &random) == 0 {
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
        }
        return bytes
    }

    private func signature(using random: inout SeededGenerator) -> String {
        ["WEBVTT", "WEBVTT", "WEBVTT", "WEBVTT - title", "WEBVTT\tx", "WEBVTT ", "WEBVTTX", "webvtt", "WEBVT", "",
         " WEBVTT", "WEBVTT --> 00:01.000", "WEBVTT\u{0C}"].randomElement(using: &random) ?? "WEBVTT"
    }

    private func headerLine(using random: inout SeededGenerator) -> String {
        ["X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000", "Kind: captions", "Language: en", "NOTE in the header",
         "a --> b", timing(using: &random), Self.spaces.randomElement(using: &random) ?? ""].randomElement(using: &random) ?? ""
    }

    private func block(using random: inout SeededGenerator) -> [String] {
        let keyword = ["NOTE", "NOTE", "STYLE", "REGION", "NOTE comment", "STYLE\t", "REGION ", "NOTEX", "STYLE::cue",
                       "NOTE -->", "note", " NOTE", "REGION\u{0C}"].randomElement(using: &random) ?? "NOTE"
        var lines = [keyword]
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            lines.append(Bool.random(using: &random) ? payload(using: &random) : timing(using: &random))
        }
        return lines
    }

    private func cue(using random: inout SeededGenerator) -> [String] {
        var lines: [String] = []
        switch Int.random(in: 0..<6, using: &random) {
        case 0: lines.append("\(Int.random(in: 1...9999, using: &random))")
        case 1: lines.append(["id --> arrow", "cue-1", "NOTE", "STYLE", "\u{00E9}t\u{00E9}", " ", "--> "]
            .randomElement(using: &random) ?? "id")
        case 2: lines.append(timing(using: &random))
        default: break
        }
        lines.append(timing(using: &random))
        for _ in 0..<Int.random(in: 0...3, using: &random) { lines.append(payload(using: &random)) }
        return lines
    }

    private func payload(using random: inout SeededGenerator) -> String {
        ["Hello", "<i>and its second line</i>", "a --> b", "-->", "--", "->", "- ->", " ", "\t", "line with \u{00FC}mlaut",
         "\u{65E5}\u{672C}\u{8A9E}", "NOTE", "WEBVTT", "00:00.000", timing(using: &random)].randomElement(using: &random) ?? ""
    }

    /// A timing line, usually well-formed, often not: fields missing or extra, hours of any length,
    /// 60 minutes, digit runs that overflow Int64, odd whitespace and arrows, settings or none.
    func timing(using random: inout SeededGenerator) -> String {
        let space = { (random: inout SeededGenerator) in Self.spaces.randomElement(using: &random) ?? "" }
        var text = space(&random)
        text += timestamp(using: &random)
        text += Int.random(in: 0..<4, using: &random) == 0 ? space(&random) : " "
        text += ["-->", "-->", "-->", "-->", "->", "--->", "-- >", "—>", ""].randomElement(using: &random) ?? "-->"
        text += Int.random(in: 0..<4, using: &random) == 0 ? space(&random) : " "
        text += timestamp(using: &random)
        switch Int.random(in: 0..<5, using: &random) {
        case 0: text += " " + (["align:start", "line:85% position:10%", "region:r1 size:50%", "-->", "vertical:rl \t"]
            .randomElement(using: &random) ?? "")
        case 1: text += space(&random)
        case 2: text += ["x", "00", ".5", " --> 00:01.000"].randomElement(using: &random) ?? ""
        default: break
        }
        return text
    }

    private func timestamp(using random: inout SeededGenerator) -> String {
        func digits(_ count: Int, _ random: inout SeededGenerator) -> String {
            String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
        }
        func field(_ random: inout SeededGenerator) -> String {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: return ["60", "59", "99", "00"].randomElement(using: &random) ?? "00"
            case 1: return digits(Int.random(in: 0...3, using: &random), &random)
            default: return String(format: "%02d", Int.random(in: 0...59, using: &random))
            }
        }
        let hours: String
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1, 2: hours = ""
        case 3: hours = digits(Int.random(in: 1...3, using: &random), &random) + ":"
        case 4: hours = digits(Int.random(in: 15...25, using: &random), &random) + ":"
        case 5: hours = ["100:", "999:", "9223372036854775807:", "2562047788015:", "2562047788016:", "0:"]
            .randomElement(using: &random) ?? ""
        default: hours = String(format: "%02d", Int.random(in: 0...99, using: &random)) + ":"
        }
        var text = hours + field(&random)
        if Int.random(in: 0..<12, using: &random) != 0 { text += ":" + field(&random) }
        if Int.random(in: 0..<20, using: &random) == 0 { text += ":" + field(&random) }
        switch Int.random(in: 0..<10, using: &random) {
        case 0: text += "." + digits(Int.random(in: 0...5, using: &random), &random)
        case 1: text += ["", ",000", ".", ".1234"].randomElement(using: &random) ?? ""
        default: text += "." + digits(3, &random)
        }
        return text
    }
}
