/// The styling a cue keeps from TTML: what WebVTT's `<i>`, `<b>` and `<u>` can say (TTML1 §8.2).
struct TTMLTextStyle: Equatable, Sendable {
    var italic = false
    var bold = false
    var underline = false

    /// Applies the `tts:fontStyle`, `tts:fontWeight` and `tts:textDecoration` attributes of `element`.
    mutating func apply(attributesOf element: XMLTree.Element) {
        for attribute in element.attributes where TTMLConverter.stylingNamespaces.contains(attribute.name.namespace) {
            let value = attribute.value.trimmingWhitespace
            switch attribute.name.local {
            case "fontStyle":
                italic = value == "italic" || value == "oblique" || value == "reverseOblique"
            case "fontWeight":
                bold = value == "bold"
            case "textDecoration":
                // §8.2.21: a list of keywords; `none` clears all, `noUnderline` clears only underline.
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

    /// The WebVTT tags this style opens, outermost first.
    var tags: [String] {
        (bold ? ["b"] : []) + (italic ? ["i"] : []) + (underline ? ["u"] : [])
    }
}

/// The `<style>` and `<region>` definitions of a document's `<head>`, by `xml:id`, and how an element's
/// referential (`style="s1 s2"`), region and inline styling combine (TTML1 §8.4.4).
struct TTMLStyleSheet {
    private var styles: [String: XMLTree.Element] = [:]
    private var regions: [String: XMLTree.Element] = [:]

    /// Style references nested deeper than this (or in a cycle) stop being followed.
    private static let maximumReferenceDepth = 8

    init(head: XMLTree.Element?) {
        guard let head else { return }
        for section in head.elements where TTMLConverter.ttNamespaces.contains(section.name.namespace) {
            for definition in section.elements where TTMLConverter.ttNamespaces.contains(definition.name.namespace) {
                guard let id = definition.attribute("id", namespace: XMLTree.xmlNamespace)?.trimmingWhitespace else { continue }
                switch (section.name.local, definition.name.local) {
                case ("styling", "style"): styles[id] = definition
                case ("layout", "region"): regions[id] = definition
                default: break
                }
            }
        }
    }

    /// `inherited` with the element's region styles, then its referenced styles, then its own attributes.
    func style(of element: XMLTree.Element, inherited: TTMLTextStyle) -> TTMLTextStyle {
        var style = inherited
        if let regionID = element.attribute("region")?.trimmingWhitespace, let region = regions[regionID] {
            // A region may carry styles inline, by reference, or in nested <style> children (§8.4.4.2).
            for child in region.elements where child.name.local == "style" { apply(child, to: &style, depth: 0) }
            apply(region, to: &style, depth: 0)
        }
        applyReferences(of: element, to: &style, depth: 0)
        style.apply(attributesOf: element)
        return style
    }

    private func apply(_ definition: XMLTree.Element, to style: inout TTMLTextStyle, depth: Int) {
        applyReferences(of: definition, to: &style, depth: depth)
        style.apply(attributesOf: definition)
    }

    private func applyReferences(of element: XMLTree.Element, to style: inout TTMLTextStyle, depth: Int) {
        guard depth < Self.maximumReferenceDepth, let references = element.attribute("style") else { return }
        for id in references.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            if let definition = styles[String(id)] { apply(definition, to: &style, depth: depth + 1) }
        }
    }
}
