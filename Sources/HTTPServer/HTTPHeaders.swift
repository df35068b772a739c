/// An ordered list of header fields. Names compare case-insensitively (RFC 9110 §5.1); order and
/// spelling are kept for writing.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field as received or to be sent.
    public struct Field: Sendable, Equatable {
        /// The name as spelled.
        public var name: String
        /// The value, without surrounding whitespace.
        public var value: String

        /// Makes a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// An empty header list.
    public init() { fields = [] }

    /// An empty list with room for `capacity` fields, for a caller that knows the count up front.
    public init(reservingCapacity capacity: Int) {
        fields = []
        fields.reserveCapacity(capacity)
    }

    /// Headers from `(name, value)` pairs, in order.
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// Headers from a literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The first value of `name`, or nil. Setting replaces every field of that name (nil removes them).
    public subscript(name: String) -> String? {
        get { fields.first { HTTPHeaders.equalNames($0.name, name) }?.value }
        set {
            if let newValue {
                if let index = fields.firstIndex(where: { HTTPHeaders.equalNames($0.name, name) }) {
                    fields[index].value = newValue
                    var next = index + 1
                    while next < fields.count {
                        if HTTPHeaders.equalNames(fields[next].name, name) {
                            fields.remove(at: next)
                        } else {
                            next += 1
                        }
                    }
                } else {
                    fields.append(Field(name: name, value: newValue))
                }
            } else {
                remove(name)
            }
        }
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { HTTPHeaders.equalNames($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { HTTPHeaders.equalNames($0.name, name) }
    }

    /// Appends a field, keeping any others of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { HTTPHeaders.equalNames($0.name, name) }
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// ASCII case-insensitive comparison of raw name bytes with a literal.
    static func equalNames(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        name.withUTF8Buffer { equalNames(bytes, $0) }
    }

    /// ASCII case-insensitive comparison of two runs of bytes.
    static func equalNames(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for index in 0..<a.count {
            let p = a[index], q = b[index]
            guard p != q else { continue }
            // Equal but for the 0x20 bit, and a letter: the same letter in the other case.
            if (p | 0x20) != (q | 0x20) || !((p | 0x20) >= 0x61 && (p | 0x20) <= 0x7A) { return false }
        }
        return true
    }

    /// ASCII case-insensitive comparison of two header names.
    public static func equalNames(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        // Most lookups compare names spelled alike, or names that differ in their first letter.
        if a == b { return true }
        if let p = x.first, let q = y.first, p | 0x20 != q | 0x20 { return false }
        // Over contiguous bytes when both have them (native strings do): every header lookup comes here.
        let fast = x.withContiguousStorageIfAvailable { p in
            y.withContiguousStorageIfAvailable { q in equalNames(p, q) }
        }
        if let fast, let result = fast { return result }
        for (p, q) in zip(x, y) where p != q {
            let lp = (p >= 65 && p <= 90) ? p | 0x20 : p
            let lq = (q >= 65 && q <= 90) ? q | 0x20 : q
            if lp != lq { return false }
        }
        return true
    }
}
