/// The styling a cue keeps from TTML: what WebVTT's `<i>`, `<b>` and `<u>` can say (TTML1 §8.2).
struct TTMLTextStyle: Equatable, Sendable {
    var italic = false
    var bold = false
    var underline = false

    /// What a set of styling attributes says: nil where it says nothing, so it can be layered over another.
    struct Change: Equatable, Sendable {
        var italic: Bool?
        var bold: Bool?
        var underline: Bool?

        /// The `tts:fontStyle`, `tts:fontWeight` and `tts:textDecoration` attributes of `element`.
        init(attributesOf element: XMLTree.Element) {
            for attribute in element.attributes where TTMLConverter.stylingNamespaces.contains(attribute.name.namespace) {
                let value = attribute.value.trimmingWhitespace
                switch attribute.name.local {
                case "fontStyle":
                    italic = value == "italic" || value == "oblique" || value == "reverseOblique"
                case "fontWeight":
                    bold = value == "bold"
                case "textDecoration":
                    // tts:textDecoration is a list of keywords; `none` clears all, `noUnderline` clears only underline.
                    for keyword in value.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                        switch keyword {
                        case "underline": underline = true
                        case "noUnderline", "none": underline = false
                        default: break
                        }
                    }
                default:
                    break
                }
            }
        }

        init() {}

        /// `other` layered over this one: where both say something, `other` wins.
        func then(_ other: Change) -> Change {
            var combined = self
            combined.italic = other.italic ?? italic
            combined.bold = other.bold ?? bold
            combined.underline = other.underline ?? underline
            return combined
        }
    }

    /// The style with `change` applied.
    func applying(_ change: Change) -> TTMLTextStyle {
        TTMLTextStyle(italic: change.italic ?? italic, bold: change.bold ?? bold, underline: change.underline ?? underline)
    }

    /// The WebVTT tags this style opens, outermost first.
    var tags: [String] {
        (bold ? ["b"] : []) + (italic ? ["i"] : []) + (underline ? ["u"] : [])
    }
}
