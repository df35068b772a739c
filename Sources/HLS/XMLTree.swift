/// A parsed XML 1.0 document with namespaces resolved (Namespaces in XML 1.0 §6): what the TTML reader walks.
///
/// Only what a subtitle file needs is kept: elements, their attributes and character data. Comments,
/// processing instructions, the XML declaration and the DOCTYPE are dropped while reading.
enum XMLTree {
    /// The namespace the `xml:` prefix is bound to by definition (Namespaces in XML 1.0 §3).
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// Elements nested deeper than this are refused; real subtitle files nest under fifteen levels.
    static let maximumDepth = 64

    /// An expanded name: the namespace URI the prefix was bound to (empty for none) and the local part.
    struct Name: Hashable, Sendable {
        let namespace: String
        let local: String
    }

    /// One attribute, its value with references decoded and whitespace normalized (XML 1.0 §3.3.3).
    struct Attribute: Sendable, Equatable {
        let name: Name
        let value: String
    }

    /// A child of an element: another element, or character data (text, references and CDATA merged).
    enum Node: Sendable {
        case element(Element)
        case text(String)
    }

    /// An element with its attributes (namespace declarations left out) and children in document order.
    struct Element: Sendable {
        let name: Name
        var attributes: [Attribute]
        var children: [Node]

        /// The value of the attribute `local` in `namespace` (empty: unprefixed), or nil.
        func attribute(_ local: String, namespace: String = "") -> String? {
            attributes.first { $0.name.local == local && $0.name.namespace == namespace }?.value
        }

        /// The value of the attribute `local` in any of `namespaces`, or nil.
        func attribute(_ local: String, in namespaces: Set<String>) -> String? {
            attributes.first { $0.name.local == local && namespaces.contains($0.name.namespace) }?.value
        }

        /// The child elements, in order.
        var elements: [Element] {
            children.compactMap { node in
                if case .element(let element) = node { return element }
                return nil
            }
        }
    }
}
