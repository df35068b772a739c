/// A run of a paragraph's content with the interval in which it shows: text in one style, or a `<br/>`.
struct TTMLTextPiece {
    enum Kind {
        case text(String)
        case lineBreak
    }

    let kind: Kind
    let style: TTMLTextStyle
    let preservesSpace: Bool
    let begin: TTMLTime
    let end: TTMLTime?

    var hasVisibleText: Bool {
        guard case .text(let text) = kind else { return false }
        return !text.trimmingWhitespace.isEmpty
    }

    /// The cue lines the pieces make, WebVTT-escaped with style tags; blank lines are left out.
    ///
    /// TTML1 §7.2.3 default whitespace handling: runs of space, tab and line ends become one space and
    /// spaces at a line's start or end are removed; under `xml:space="preserve"` spaces are kept and a
    /// source line end breaks the line.
    static func payload(of pieces: [TTMLTextPiece]) -> [String] {
        var lines = LineBuilder()
        for piece in pieces {
            switch piece.kind {
            case .lineBreak:
                lines.breakLine()
            case .text(let text):
                for scalar in text.unicodeScalars {
                    let isSpace = scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
                    if piece.preservesSpace {
                        if scalar == "\n" { lines.breakLine() } else { lines.append(scalar, style: piece.style) }
                    } else if isSpace {
                        lines.collapsedSpace(style: piece.style)
                    } else {
                        lines.append(scalar, style: piece.style)
                    }
                }
            }
        }
        lines.breakLine()
        return lines.rendered
    }

    private struct LineBuilder {
        private var lines: [[(style: TTMLTextStyle, text: String)]] = []
        private var current: [(style: TTMLTextStyle, text: String)] = []
        /// Collapsed whitespace waiting for visible text after it: dropped at the end of a line.
        private var pendingSpace: TTMLTextStyle?

        mutating func collapsedSpace(style: TTMLTextStyle) {
            if !current.isEmpty, pendingSpace == nil { pendingSpace = style }
        }

        mutating func append(_ scalar: Unicode.Scalar, style: TTMLTextStyle) {
            if let spaceStyle = pendingSpace {
                pendingSpace = nil
                appendRaw(" ", style: spaceStyle)
            }
            appendRaw(scalar, style: style)
        }

        private mutating func appendRaw(_ scalar: Unicode.Scalar, style: TTMLTextStyle) {
            if let last = current.indices.last, current[last].style == style {
                current[last].text.unicodeScalars.append(scalar)
            } else {
                current.append((style, String(Character(scalar))))
            }
        }

        mutating func breakLine() {
            lines.append(current)
            current = []
            pendingSpace = nil
        }

        var rendered: [String] {
            lines.compactMap { runs in
                guard runs.contains(where: { !$0.text.trimmingWhitespace.isEmpty }) else { return nil }
                var line = ""
                for run in runs {
                    let tags = run.style.tags
                    for tag in tags { line += "<\(tag)>" }
                    for scalar in run.text.unicodeScalars {
                        switch scalar {
                        case "&": line += "&amp;"
                        case "<": line += "&lt;"
                        case ">": line += "&gt;"
                        default: line.unicodeScalars.append(scalar)
                        }
                    }
                    for tag in tags.reversed() { line += "</\(tag)>" }
                }
                return line
            }
        }
    }
}
