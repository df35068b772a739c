/// The memory behind an `HTTPHeaders`: every field's line as it goes on the wire, `name: value` and
/// CRLF, back to back in one byte buffer, and where each field's name and value sit in it.
///
/// A response's fields are then written with one copy, and adding a field is two copies into memory
/// already there, with none of an array's per-append checks. `HTTPHeaders` shares an instance between
/// copies and copies it before a change unless it holds the only reference (copy-on-write), so an
/// instance is never changed once two lists can see it; that is what makes it safe to send across
/// threads.
final class HeaderFieldStorage: @unchecked Sendable {
    /// Where one field sits in `bytes`: the name at `start`, then ": ", the value, and CRLF.
    struct Span: Equatable {
        var start: Int
        var nameCount: Int
        var valueCount: Int
        /// A token name (RFC 9110 §5.1) the server does not write itself.
        var sendable: Bool
        /// A value with CR, LF or another control byte (HTAB aside), which the writer replaces by SP.
        var needsSanitizing: Bool

        var valueStart: Int { start + nameCount + 2 }
        var end: Int { valueStart + valueCount + 2 }
    }

    // One block of raw memory: the spans, then the bytes. One allocation per list rather than two.
    private var block: UnsafeMutableRawPointer
    private var spans: UnsafeMutablePointer<Span>
    private var spanCapacity: Int
    private var bytes: UnsafeMutablePointer<UInt8>
    private var byteCapacity: Int
    private(set) var byteCount = 0
    private(set) var count = 0
    /// How many fields cannot be copied to the wire as they are: a name that is not a token, one the
    /// server frames the message with (Content-Length, Date, Connection, Transfer-Encoding), or a value
    /// with control bytes.
    private(set) var irregularCount = 0
    /// Whether a field the writer sends is named Server.
    private(set) var hasServerField = false

    init(fieldCapacity: Int, byteCapacity: Int) {
        spanCapacity = max(1, fieldCapacity)
        self.byteCapacity = max(16, byteCapacity)
        (block, spans, bytes) = Self.allocate(fields: spanCapacity, bytes: self.byteCapacity)
    }

    deinit {
        spans.deinitialize(count: count)
        block.deallocate()
    }

    private static func allocate(fields: Int, bytes: Int)
        -> (UnsafeMutableRawPointer, UnsafeMutablePointer<Span>, UnsafeMutablePointer<UInt8>) {
        let spanBytes = fields * MemoryLayout<Span>.stride
        let block = UnsafeMutableRawPointer.allocate(byteCount: spanBytes + bytes, alignment: MemoryLayout<Span>.alignment)
        return (block, block.bindMemory(to: Span.self, capacity: fields),
                (block + spanBytes).bindMemory(to: UInt8.self, capacity: bytes))
    }

    /// A separate instance with the same fields and the same room.
    func copy() -> HeaderFieldStorage {
        copy(fieldCapacity: spanCapacity, byteCapacity: byteCapacity)
    }

    /// A separate instance with the same fields and the given room (at least what they take).
    private func copy(fieldCapacity: Int, byteCapacity: Int) -> HeaderFieldStorage {
        let copy = HeaderFieldStorage(fieldCapacity: max(fieldCapacity, count), byteCapacity: max(byteCapacity, byteCount))
        copy.spans.initialize(from: spans, count: count)
        copy.bytes.initialize(from: bytes, count: byteCount)
        copy.count = count
        copy.byteCount = byteCount
        copy.irregularCount = irregularCount
        copy.hasServerField = hasServerField
        return copy
    }

    /// A separate instance with these fields, then `other`'s, sized for both and a few more: the
    /// copy-on-write of a shared list that is about to take another list's fields, in one allocation
    /// where `copy()` and a growing append took two.
    func copy(appending other: HeaderFieldStorage) -> HeaderFieldStorage {
        let copy = copy(fieldCapacity: count + other.count + Self.spareFields,
                        byteCapacity: byteCount + other.byteCount + Self.spareBytes)
        copy.append(contentsOf: other)
        return copy
    }

    /// Room `copy(appending:)` leaves for the fields a response still gets after its route's (a CORS
    /// field or two, a Content-Range).
    private static let spareFields = 3
    private static let spareBytes = 128

    /// Appends a field, classifying it for the writer. What the caller already knows is not worked
    /// out again: `nameIsToken`, and the name's `kind`. Only called on an instance no other list sees.
    func append(
        name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, nameIsToken: Bool, kind known: FramingFieldName? = nil
    ) {
        let kind = known ?? FramingFieldName(name)
        let sendable = (nameIsToken || HTTPSyntax.isToken(name)) && !kind.isServerOwned
        let needsSanitizing = HTTPSyntax.containsControl(value)
        reserve(fields: 1, bytes: name.count + value.count + 4)
        let start = byteCount
        put(name)
        put(0x3A, 0x20)
        put(value)
        put(0x0D, 0x0A)
        (spans + count).initialize(to: Span(start: start, nameCount: name.count, valueCount: value.count,
                                            sendable: sendable, needsSanitizing: needsSanitizing))
        count += 1
        if !sendable || needsSanitizing { irregularCount += 1 }
        if sendable, kind == .server { hasServerField = true }
    }

    /// Forgets every field and keeps the memory. Only called on an instance no other list sees.
    func removeAll() {
        spans.deinitialize(count: count)
        count = 0
        byteCount = 0
        irregularCount = 0
        hasServerField = false
    }

    /// Appends every field of `other` in one copy of its lines (they were classified when added there).
    func append(contentsOf other: HeaderFieldStorage) {
        let (fields, lines) = (other.count, other.byteCount)
        reserve(fields: fields, bytes: lines)
        for index in 0..<fields {
            var span = other.spans[index]
            span.start += byteCount
            (spans + count + index).initialize(to: span)
        }
        (bytes + byteCount).initialize(from: other.bytes, count: lines)
        count += fields
        byteCount += lines
        irregularCount += other.irregularCount
        hasServerField = hasServerField || other.hasServerField
    }

    /// Makes room for `fields` more fields taking `bytes` more bytes, doubling whichever part is short.
    private func reserve(fields more: Int, bytes extra: Int) {
        let fieldsShort = spanCapacity - count < more, bytesShort = byteCapacity - byteCount < extra
        guard fieldsShort || bytesShort else { return }
        let fields = fieldsShort ? max(spanCapacity * 2, count + more) : spanCapacity
        let room = bytesShort ? max(byteCapacity * 2, byteCount + extra) : byteCapacity
        let (newBlock, newSpans, newBytes) = Self.allocate(fields: fields, bytes: room)
        newSpans.moveInitialize(from: spans, count: count)
        newBytes.initialize(from: bytes, count: byteCount)
        block.deallocate()
        (block, spans, bytes, spanCapacity, byteCapacity) = (newBlock, newSpans, newBytes, fields, room)
    }

    private func put(_ source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress else { return }
        (bytes + byteCount).initialize(from: base, count: source.count)
        byteCount += source.count
    }

    private func put(_ first: UInt8, _ second: UInt8) {
        bytes[byteCount] = first
        bytes[byteCount + 1] = second
        byteCount += 2
    }

    // MARK: - Reading

    /// Field `index` (below `count`).
    func span(_ index: Int) -> Span {
        precondition(index >= 0 && index < count, "header field index out of range")
        return spans[index]
    }

    /// Every line, `name: value` CRLF each, in order; valid until the next mutation (a growing append
    /// moves the block).
    var wire: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes, count: byteCount) }

    /// The name of field `index`; valid until the next mutation.
    func name(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let span = span(index)
        return UnsafeBufferPointer(start: bytes + span.start, count: span.nameCount)
    }

    /// The value of field `index`; valid until the next mutation.
    func value(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let span = span(index)
        return UnsafeBufferPointer(start: bytes + span.valueStart, count: span.valueCount)
    }

    /// `wire`, `name` and `value` lent to `body` only, so the bytes cannot outlive a mutation.
    func withWire<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R { try body(wire) }
    func withName<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R { try body(name(index)) }
    func withValue<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R { try body(value(index)) }

    /// The same fields in the same order: the same lines, split the same way into name and value.
    func holdsTheSameFields(as other: HeaderFieldStorage) -> Bool {
        guard count == other.count, byteCount == other.byteCount else { return false }
        for index in 0..<count where spans[index].nameCount != other.spans[index].nameCount { return false }
        return wire.elementsEqual(other.wire)
    }
}
