/// A growable table of plain values read and written by index: the event loop's deadline links.
/// A plain array underneath; the raw block it once was gained only noise (bench/README.md, "Raw memory").
/// Only the loop thread holds a table, and the runtime's access check on `elements` is what a request
/// would pay for it (+15 % of /healthz's instructions, bench/README.md), so that one check is skipped.
public final class PlainTable<Element: BitwiseCopyable> {
    @exclusivity(unchecked) @usableFromInline var elements: [Element]
    /// How many elements the table holds, each set to the filler until written.
    @inlinable public var count: Int { elements.count }

    /// A table of `count` (at least 1) copies of `filler`.
    @inlinable
    public init(repeating filler: Element, count: Int) {
        elements = Array(repeating: filler, count: max(1, count))
    }

    /// The element at `index`, which must be below `count` (a trap otherwise, never a stray access).
    @inlinable
    public subscript(index: Int) -> Element {
        get { elements[index] }
        set { elements[index] = newValue }
    }

    /// Grows the table to hold at least `newCount` elements, the new ones set to `filler`.
    public func grow(toCount newCount: Int, filling filler: Element) {
        guard newCount > count else { return }
        elements.append(contentsOf: repeatElement(filler, count: newCount - count))
    }
}
