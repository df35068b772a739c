/// An ordered list of header fields. Names compare case-insensitively (RFC 9110 §5.1); order and
/// spelling are kept for writing. The fields are held as the lines they are written as, so a response
/// head takes them in one copy, and a field read as a String is made when it is asked for.
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

    /// The fields as wire lines (see `HeaderFieldStorage`); nil while there are none.
    private var storage: HeaderFieldStorage?

    /// An empty header list.
    public init() {}

    /// An empty list with room for `capacity` fields, for a caller that knows the count up front.
    public init(reservingCapacity capacity: Int) {
        reserveCapacity(capacity)
    }

    /// Room a field usually takes on the wire, for reserving.
    private static let typicalFieldBytes = 48

    /// Headers from `(name, value)` pairs, in order.
    public init(_ pairs: [(String, String)]) {
        self.init(reservingCapacity: pairs.count)
        for (name, value) in pairs { add(name: name, value: value) }
    }

    /// Headers from a literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The fields in order.
    public var fields: [Field] { Array(self) }

    /// The number of fields.
    public var count: Int { storage?.count ?? 0 }

    /// Whether there are no fields.
    public var isEmpty: Bool { count == 0 }

    /// Whether a field the writer sends is named Server (the writer then adds no Server of its own).
    package var hasServerField: Bool { storage?.hasServerField ?? false }

    /// The first value of `name`, or nil. Setting replaces every field of that name (nil removes them).
    public subscript(name: String) -> String? {
        get { firstIndex(of: name).map { value(at: $0) } }
        set {
            guard let newValue else {
                remove(name)
                return
            }
            guard contains(name) else {
                add(name: name, value: newValue)
                return
            }
            self = without(name, firstGetting: newValue)
        }
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        (0..<count).filter { matches($0, name) }.map { value(at: $0) }
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        firstIndex(of: name) != nil
    }

    /// Appends a field whose name comes from data (another message, a config file), keeping any
    /// others of the same name. The name is checked byte by byte, so the writer leaves out one that is
    /// not a token; names written in the source use `add(_:_:)`.
    public mutating func add(name: String, value: String) {
        Self.withBytes(name) { name in
            Self.withBytes(value) { append(name: name, value: $0) }
        }
    }

    /// Appends a field whose name is written in the source, keeping any others of the same name. Such a
    /// name is a token by construction (debug builds, which the tests run, assert it), so only names
    /// that come from data, through `add(name:value:)`, are checked byte by byte on every call.
    public mutating func add(_ name: StaticString, _ value: String) {
        name.withUTF8Buffer { name in
            assert(HTTPSyntax.isToken(name), "a header name in the source is not a token")
            Self.withBytes(value) { append(name: name, value: $0, nameIsToken: true) }
        }
    }

    /// Appends a field whose name is written in the source and whose value is given as bytes, as
    /// `add(_:_:)` does, for a value assembled in memory of the caller's rather than in a string.
    public mutating func add(_ name: StaticString, bytes value: UnsafeBufferPointer<UInt8>) {
        name.withUTF8Buffer { name in
            assert(HTTPSyntax.isToken(name), "a header name in the source is not a token")
            append(name: name, value: value, nameIsToken: true)
        }
    }

    /// Appends a field from raw bytes; `nameIsToken` when the caller has already checked that the name
    /// is a token.
    package mutating func append(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, nameIsToken: Bool = false) {
        writableStorage().append(name: name, value: value, nameIsToken: nameIsToken)
    }

    /// Appends a field the request parser accepted: its name is a token of the given kind.
    package mutating func appendParsed(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, kind: FramingFieldName) {
        writableStorage().append(name: name, value: value, nameIsToken: true, kind: kind)
    }

    /// Appends every field of `other`, in order: one copy of lines already classified, so a set of
    /// fields many responses share can be made once and added to each.
    public mutating func append(contentsOf other: HTTPHeaders) {
        guard let source = other.storage, source.count > 0 else { return }
        guard storage != nil else {
            self = other
            return
        }
        if isKnownUniquelyReferenced(&storage), let storage {
            withExtendedLifetime(source) { storage.append(contentsOf: source) }
            return
        }
        // Shared (a list kept with a cached answer): one copy sized for both.
        storage = storage.map { $0.copy(appending: source) }
    }

    /// Removes every field. With `keepingCapacity`, memory this list alone holds is kept for the
    /// fields that come next (the server reuses one request's list for the next request's).
    public mutating func removeAll(keepingCapacity keep: Bool = false) {
        if keep, isKnownUniquelyReferenced(&storage) {
            storage?.removeAll()
        } else {
            storage = nil
        }
    }

    /// Makes room for `fields` fields when the list has no memory yet (a list that has some grows as
    /// fields are added).
    public mutating func reserveCapacity(_ fields: Int) {
        guard storage == nil, fields > 0 else { return }
        storage = HeaderFieldStorage(fieldCapacity: fields, byteCapacity: fields * Self.typicalFieldBytes)
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        guard contains(name) else { return }
        self = without(name, firstGetting: nil)
    }

    /// A new list without the fields named `name`, except that with a `replacement` the first of them
    /// stays where it was, holding that value.
    private func without(_ name: String, firstGetting replacement: String?) -> HTTPHeaders {
        var rebuilt = HTTPHeaders(reservingCapacity: count)
        guard let old = storage else { return rebuilt }
        var replaced = false
        for index in 0..<old.count {
            guard matches(index, name) else {
                rebuilt.append(name: old.name(index), value: old.value(index))
                continue
            }
            if let replacement, !replaced {
                Self.withBytes(replacement) { rebuilt.append(name: old.name(index), value: $0) }
                replaced = true
            }
        }
        return rebuilt
    }

    /// The storage, made this list's own first when another list shares it (copy-on-write).
    private mutating func writableStorage() -> HeaderFieldStorage {
        if isKnownUniquelyReferenced(&storage), let storage { return storage }
        let fresh = storage?.copy() ?? HeaderFieldStorage(fieldCapacity: 4, byteCapacity: 4 * Self.typicalFieldBytes)
        storage = fresh
        return fresh
    }

    /// Iterates the fields in order.
    public func makeIterator() -> Iterator { Iterator(storage: storage) }

    /// The fields in order, each made into Strings as it is reached.
    public struct Iterator: IteratorProtocol {
        let storage: HeaderFieldStorage?
        var index = 0

        public mutating func next() -> Field? {
            guard let storage, index < storage.count else { return nil }
            defer { index += 1 }
            return Field(name: String(decoding: storage.name(index), as: UTF8.self),
                         value: String(decoding: storage.value(index), as: UTF8.self))
        }
    }

    /// Writes the fields a response sends, `name: value` and CRLF each: the whole list in one copy when
    /// every field can go as it is, else field by field, leaving out those the server does not send and
    /// replacing control bytes in values by SP so no value can split the head.
    package func write(into head: inout HeadWriter) {
        guard let storage else { return }
        // The storage stays alive for the call: `self` holds it.
        withExtendedLifetime(storage) {
            if storage.irregularCount == 0 {
                head.append(storage.wire)
                return
            }
            for index in 0..<storage.count {
                let span = storage.span(index)
                guard span.sendable else { continue }
                head.append(storage.name(index))
                head.append(": ")
                if span.needsSanitizing {
                    head.appendSanitized(storage.value(index))
                } else {
                    head.append(storage.value(index))
                }
                head.append("\r\n")
            }
        }
    }

    // MARK: - Field access

    private func value(at index: Int) -> String {
        guard let storage else { return "" }
        return withExtendedLifetime(storage) { String(decoding: storage.value(index), as: UTF8.self) }
    }

    private func matches(_ index: Int, _ name: String) -> Bool {
        guard let storage else { return false }
        return withExtendedLifetime(storage) {
            let stored = storage.name(index)
            guard stored.count == name.utf8.count else { return false }
            return Self.withBytes(name) { Self.equalNames(stored, $0) }
        }
    }

    private func firstIndex(of name: String) -> Int? {
        (0..<count).first { matches($0, name) }
    }

    /// Equal when they hold the same fields in the same order.
    public static func == (a: HTTPHeaders, b: HTTPHeaders) -> Bool {
        switch (a.storage, b.storage) {
        case (nil, nil): return true
        case (let x?, nil), (nil, let x?): return x.count == 0
        case (let x?, let y?): return x === y || x.holdsTheSameFields(as: y)
        }
    }

    /// A String's UTF-8 bytes: in place when it has them contiguous (native strings do), else copied.
    @usableFromInline package static func withBytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }


    /// ASCII case-insensitive comparison of raw name bytes with a literal.
    package static func equalNames(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        name.withUTF8Buffer { equalNames(bytes, $0) }
    }

    /// ASCII case-insensitive comparison of two runs of bytes.
    package static func equalNames(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
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
