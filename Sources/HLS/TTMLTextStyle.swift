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

/// The `<style>` and `<region>` definitions of a document's `<head>`, by `xml:id`, and how an element's
/// referential (`style="s1 s2"`), region and inline styling combine (TTML1 §8.4.4).
struct TTMLStyleSheet {
    /// Each `<style>`'s change with its own references resolved, computed once so a chain of references
    /// costs one lookup wherever it is used; a reference cycle contributes nothing past its first step.
    private var styles: [String: TTMLTextStyle.Change] = [:]
    /// Each `<region>`'s change: nested `<style>` children, then its references, then its own attributes.
    private var regions: [String: TTMLTextStyle.Change] = [:]

    init(head: XMLTree.Element?) {
        guard let head else { return }
        var definitions: [String: XMLTree.Element] = [:]
        var order: [String] = []
        var regionElements: [(String, XMLTree.Element)] = []
        for section in head.elements where TTMLConverter.ttNamespaces.contains(section.name.namespace) {
            for definition in section.elements where TTMLConverter.ttNamespaces.contains(definition.name.namespace) {
                guard let id = definition.attribute("id", namespace: XMLTree.xmlNamespace)?.trimmingWhitespace else { continue }
                switch (section.name.local, definition.name.local) {
                case ("styling", "style"):
                    definitions[id] = definition
                    order.append(id)
                case ("layout", "region"): regionElements.append((id, definition))
                default: break
                }
            }
        }
        var resolving: Set<String> = []
        for id in order { _ = resolve(id, definitions, &resolving, depth: 0) }
        for (id, region) in regionElements {
            var change = TTMLTextStyle.Change()
            for child in region.elements where child.name.local == "style" { change = change.then(ownChange(of: child)) }
            regions[id] = change.then(ownChange(of: region))
        }
    }

    /// `inherited` with the element's region change, then its referenced styles, then its own attributes.
    func style(of element: XMLTree.Element, inherited: TTMLTextStyle) -> TTMLTextStyle {
        var style = inherited
        if let regionID = element.attribute("region")?.trimmingWhitespace, let region = regions[regionID] {
            style = style.applying(region)
        }
        return style.applying(ownChange(of: element))
    }

    /// The element's referenced styles in order, then its own attributes (TTML1 §8.4.4.2).
    private func ownChange(of element: XMLTree.Element) -> TTMLTextStyle.Change {
        var change = TTMLTextStyle.Change()
        for id in Self.references(of: element) {
            if let referenced = styles[id] { change = change.then(referenced) }
        }
        return change.then(TTMLTextStyle.Change(attributesOf: element))
    }

    /// References followed deeper than this contribute nothing: real style sheets chain two or three.
    private static let maximumReferenceDepth = 16

    private mutating func resolve(_ id: String, _ definitions: [String: XMLTree.Element],
                                  _ resolving: inout Set<String>, depth: Int) -> TTMLTextStyle.Change {
        if let done = styles[id] { return done }
        guard depth < Self.maximumReferenceDepth, let definition = definitions[id], resolving.insert(id).inserted else {
            return TTMLTextStyle.Change()
        }
        var change = TTMLTextStyle.Change()
        for reference in Self.references(of: definition) {
            change = change.then(resolve(reference, definitions, &resolving, depth: depth + 1))
        }
        change = change.then(TTMLTextStyle.Change(attributesOf: definition))
        resolving.remove(id)
        styles[id] = change
        return change
    }

    private static func references(of element: XMLTree.Element) -> [String] {
        guard let value = element.attribute("style") else { return [] }
        return value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
    }
}
