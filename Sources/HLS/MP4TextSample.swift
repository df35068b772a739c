/// Decodes one `tx3g` sample (3GPP TS 26.245 §5.17) into WebVTT cue text lines.
enum MP4TextSample {
    private struct Style {
        let start: Int
        let end: Int
        let tags: [String]
    }

    /// The cue lines of a sample; nil for a gap (text length 0) or a sample with no visible text.
    static func payload(_ sample: ArraySlice<UInt8>) -> [String]? {
        var reader = ByteReader(Array(sample))
        // A sample too short for its length field carries no text: a gap, like length 0.
        guard let declared = try? reader.readUInt16(), declared > 0 else { return nil }
        let textLength = min(Int(declared), reader.remaining)
        guard let textRange = try? reader.readRange(textLength) else { return nil }
        let textBytes = reader.bytes[textRange]
        // §5.17: text that starts with a UTF-16 BOM is UTF-16; otherwise UTF-8.
        let utf8 = textBytes.starts(with: [0xFE, 0xFF]) ? TextEncoding.utf8Bytes(from: Array(textBytes)) : Array(textBytes)
        let scalars = Array(String(decoding: utf8, as: UTF8.self).unicodeScalars)
        let styles = Self.styles(after: reader)
        let text = render(scalars, styles: styles)
        let lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            .map(String.init)
        return lines.isEmpty ? nil : lines
    }

    /// The text with WebVTT's reserved characters escaped (W3C WebVTT §4.2.2) and style tags inserted.
    private static func render(_ scalars: [Unicode.Scalar], styles: [Style]) -> String {
        var output = ""
        var styleIndex = 0
        var open: Style?
        for (position, scalar) in scalars.enumerated() {
            if open == nil, styleIndex < styles.count, styles[styleIndex].start == position {
                open = styles[styleIndex]
                styleIndex += 1
                for tag in styles[styleIndex - 1].tags { output += "<\(tag)>" }
            }
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            default: output.unicodeScalars.append(scalar)
            }
            if let style = open, style.end == position + 1 {
                for tag in style.tags.reversed() { output += "</\(tag)>" }
                open = nil
            }
        }
        if let style = open {
            for tag in style.tags.reversed() { output += "</\(tag)>" }
        }
        return output
    }

    /// §5.17.1.1 `styl` records after the text: start and end character offsets and face flags
    /// (1 bold, 2 italic, 4 underline). Overlapping or empty ranges are dropped; a bad box drops all styles.
    private static func styles(after reader: ByteReader) -> [Style] {
        var boxes = MP4BoxIterator(reader.bytes, range: reader.offset..<reader.end)
        var styles: [Style] = []
        do {
            while let box = try boxes.next() {
                guard box.type == MP4Box.code("styl") else { continue }
                var records = box.reader(reader.bytes)
                let count = Int(try records.readUInt16())
                for _ in 0..<min(count, records.remaining / 12) {
                    let start = Int(try records.readUInt16())
                    let end = Int(try records.readUInt16())
                    try records.skip(2)  // font-ID
                    let face = try records.readUInt8()
                    try records.skip(5)  // font-size, text-color-rgba
                    let tags = [(0x1, "b"), (0x2, "i"), (0x4, "u")].filter { face & $0.0 != 0 }.map(\.1)
                    if start < end, !tags.isEmpty { styles.append(Style(start: start, end: end, tags: tags)) }
                }
            }
        } catch {
            // Styling is decoration: a malformed modifier box loses the styling, never the text.
            return []
        }
        styles.sort { $0.start < $1.start }
        var kept: [Style] = []
        for style in styles where style.start >= (kept.last?.end ?? 0) { kept.append(style) }
        return kept
    }
}
