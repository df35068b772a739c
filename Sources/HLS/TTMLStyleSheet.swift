/// The `<style>` and `<region>` definitions of a document's `<head>`, by `xml:id`, and how an element's
/// referential (`style="s1 s2"`), region and inline styling combine (TTML1 §8.4, style resolution).
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

    /// The element's referenced styles in order, then its own attributes (TTML1 §8.4).
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
