extension TTMLConverter {
    /// Whether `bytes` start like a TTML document: after an optional BOM, whitespace, the XML declaration,
    /// comments, processing instructions and a DOCTYPE, the first element is `tt` (any prefix). For
    /// sources whose URL names no format (`.ttml`, `.dfxp` and `.xml` do); only the first 4 KiB are read.
    public static func looksLikeTTML(_ bytes: [UInt8]) -> Bool {
        // A UTF-16 source is two bytes a character: 4 KiB still covers a long prologue.
        let text = TextEncoding.utf8Bytes(from: Array(bytes.prefix(4096)))
        var index = 0
        func skip(past terminator: String) -> Bool {
            let needle = Array(terminator.utf8)
            while index < text.count {
                if text[index...].starts(with: needle) {
                    index += needle.count
                    return true
                }
                index += 1
            }
            return false
        }
        while index < text.count {
            if XMLTokenizer.isWhitespace(text[index]) {
                index += 1
                continue
            }
            guard text[index...].starts(with: "<".utf8) else { return false }
            let rest = text[index...]
            if rest.starts(with: "<?".utf8) {
                guard skip(past: "?>") else { return false }
            } else if rest.starts(with: "<!--".utf8) {
                guard skip(past: "-->") else { return false }
            } else if rest.starts(with: "<!".utf8) {
                // A DOCTYPE's internal subset may hold `>`; TTML files rarely carry one, so the first `]>` or `>` ends it.
                let hasSubset = rest.prefix(while: { $0 != UInt8(ascii: ">") }).contains(UInt8(ascii: "["))
                guard skip(past: hasSubset ? "]>" : ">") else { return false }
            } else {
                let name = rest.dropFirst().prefix(while: XMLTokenizer.isNameByte)
                let local = name.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).last ?? []
                return local.elementsEqual("tt".utf8)
            }
        }
        return false
    }
}
