@testable import HTTPWire
import Testing
import TestSupport

/// The header storage's classification against a table of expected results, and its lines against a
/// plain list of (name, value) pairs given the same seeded random operations.
@Suite struct HeaderFieldStorageDifferentialTests {
    /// Names that exercise each classification: framing names the server owns, Server, Host, plain
    /// tokens, and names that are not tokens (empty, a space, a colon, a non-ASCII byte).
    private static let names: [[UInt8]] = [
        "Content-Length", "content-length", "Date", "Connection", "Transfer-Encoding", "Server", "SERVER",
        "Host", "X-A", "Cache-Control", "ETag", "", "Bad Name", "a:b", "caf\u{E9}",
    ].map { Array($0.utf8) } + [[0x58, 0x00], Array(repeating: 0x61, count: 300)]

    private static func randomValue(using random: inout SeededGenerator) -> [UInt8] {
        let length = [0, 1, 5, 40, 700][Int.random(in: 0...4, using: &random)]
        return (0..<length).map { _ in
            // Mostly visible ASCII, with CR, LF, HTAB, NUL, DEL and high bytes now and then.
            Int.random(in: 0...9, using: &random) == 0
                ? [0x0D, 0x0A, 0x09, 0x00, 0x7F, 0xC3, 0xFF][Int.random(in: 0...6, using: &random)]
                : UInt8.random(in: 0x20...0x7E, using: &random)
        }
    }

    /// The storage against the pairs it was given: each field's name and value where its span says,
    /// and the wire lines `name: value` CRLF, back to back in order.
    private static func sameContents(_ storage: HeaderFieldStorage, _ model: [([UInt8], [UInt8])]) -> Bool {
        guard storage.count == model.count else { return false }
        var lines: [UInt8] = []
        for (index, (name, value)) in model.enumerated() {
            lines += name + [0x3A, 0x20] + value + [0x0D, 0x0A]
            let span = storage.span(index)
            guard span.nameCount == name.count, span.valueCount == value.count,
                  storage.withName(index, { Array($0) }) == name, storage.withValue(index, { Array($0) }) == value
            else { return false }
        }
        return storage.byteCount == lines.count && storage.withWire { Array($0) } == lines
    }

    /// One field and how the writer must treat it, written out by hand from RFC 9110 §5.1 (a name is a
    /// token), §5.5 (CR, LF, NUL and other controls but HTAB are not field-value bytes) and the server's
    /// own framing fields, so a wrong classification fails here rather than agreeing with itself.
    struct Classification: Sendable, CustomTestStringConvertible {
        let name: [UInt8]
        let value: [UInt8]
        /// What the caller claims: a parsed name is a token whose kind is already known.
        let parsed: Bool
        let sendable: Bool
        let needsSanitizing: Bool
        let isServer: Bool
        var testDescription: String { "\(String(decoding: name, as: UTF8.self).debugDescription): \(value)" }

        init(_ name: String, _ value: String = "v", parsed: Bool = false, sendable: Bool, sanitize: Bool = false, server: Bool = false) {
            self.init(Array(name.utf8), Array(value.utf8), parsed: parsed, sendable: sendable, sanitize: sanitize, server: server)
        }

        init(_ name: [UInt8], _ value: [UInt8], parsed: Bool = false, sendable: Bool, sanitize: Bool = false, server: Bool = false) {
            (self.name, self.value, self.parsed) = (name, value, parsed)
            (self.sendable, self.needsSanitizing, self.isServer) = (sendable, sanitize, server)
        }
    }

    static let classifications: [Classification] = [
        // Names the server frames the message with are never copied from a handler's list.
        .init("Content-Length", "5", sendable: false), .init("content-length", "5", sendable: false),
        .init("Date", sendable: false), .init("DATE", parsed: true, sendable: false),
        .init("Connection", "close", sendable: false), .init("Transfer-Encoding", "chunked", sendable: false),
        .init("transfer-encoding", "chunked", parsed: true, sendable: false),
        // Server is sent, and then the writer adds none of its own.
        .init("Server", "x", sendable: true, server: true), .init("SERVER", "x", sendable: true, server: true),
        .init("server", "x", parsed: true, sendable: true, server: true),
        // Other tokens go as they are, whatever their length and case.
        .init("Host", "a", sendable: true), .init("X-A", sendable: true), .init("Cache-Control", "no-store", sendable: true),
        .init("Content-Lengths", sendable: true), .init("Dates", sendable: true), .init("!#$%&'*+-.^_`|~09az", sendable: true),
        // Names that are not tokens are left out.
        .init("", sendable: false), .init("Bad Name", sendable: false), .init("a:b", sendable: false),
        .init("caf\u{E9}", sendable: false), .init([0x58, 0x00], [0x76], sendable: false), .init("X\t", sendable: false),
        // Values with CR, LF, NUL or DEL are sanitized; HTAB and bytes from 0x80 are field-value bytes.
        .init("X-A", "a\rb", sendable: true, sanitize: true), .init("X-A", "a\nb", sendable: true, sanitize: true),
        .init([0x58], [0x61, 0x00], sendable: true, sanitize: true), .init([0x58], [0x7F], sendable: true, sanitize: true),
        .init([0x58], [0x1F], sendable: true, sanitize: true), .init("X-A", "a\tb", sendable: true),
        .init([0x58], [0xC3, 0xA9, 0xFF, 0x80], sendable: true), .init("X-A", "", sendable: true),
        // Both: a name that is not a token and a value with a control byte count once.
        .init("Bad Name", "a\r\n", sendable: false, sanitize: true),
    ]

    @Test(arguments: classifications)
    func eachFieldIsClassifiedAsTheTableSays(_ field: Classification) {
        let storage = HeaderFieldStorage(fieldCapacity: 1, byteCapacity: 16)
        field.name.withUnsafeBufferPointer { name in
            field.value.withUnsafeBufferPointer { value in
                if field.parsed {
                    storage.append(name: name, value: value, nameIsToken: true, kind: FramingFieldName(name))
                } else {
                    storage.append(name: name, value: value, nameIsToken: false)
                }
            }
        }
        let span = storage.span(0)
        #expect(span.sendable == field.sendable)
        #expect(span.needsSanitizing == field.needsSanitizing)
        #expect(storage.irregularCount == (!field.sendable || field.needsSanitizing ? 1 : 0))
        #expect(storage.hasServerField == field.isServer)
    }

    @Test(arguments: [(1, 16), (4, 192), (64, 4096)])
    func randomEditsLeaveTheStorageHoldingTheFieldsItWasGiven(fieldCapacity: Int, byteCapacity: Int) {
        // HLS_TEST_SEED replays a run; the seed is printed and named in every failure.
        var random = SeededGenerator()
        let seed = random.seed
        for round in 0..<60 {
            var storage = HeaderFieldStorage(fieldCapacity: fieldCapacity, byteCapacity: byteCapacity)
            var model: [([UInt8], [UInt8])] = []
            // A second list, appended wholesale now and then.
            let other = HeaderFieldStorage(fieldCapacity: 1, byteCapacity: 16)
            var otherModel: [([UInt8], [UInt8])] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let name = Self.names[Int.random(in: 0..<Self.names.count, using: &random)]
                let value = Self.randomValue(using: &random)
                name.withUnsafeBufferPointer { name in
                    value.withUnsafeBufferPointer { other.append(name: name, value: $0, nameIsToken: false) }
                }
                otherModel.append((name, value))
            }
            for _ in 0..<Int.random(in: 0...30, using: &random) {
                switch Int.random(in: 0...10, using: &random) {
                case 0:
                    storage.removeAll()
                    model = []
                case 1:
                    storage.append(contentsOf: other)
                    model += otherModel
                case 2:
                    storage = storage.copy()
                case 3:
                    // The copy-on-write that takes another list's fields in the same allocation.
                    storage = storage.copy(appending: other)
                    model += otherModel
                default:
                    let name = Self.names[Int.random(in: 0..<Self.names.count, using: &random)]
                    let value = Self.randomValue(using: &random)
                    name.withUnsafeBufferPointer { name in
                        value.withUnsafeBufferPointer { value in
                            storage.append(name: name, value: value, nameIsToken: false)
                        }
                    }
                    model.append((name, value))
                }
                #expect(Self.sameContents(storage, model), "seed \(seed), round \(round)")
            }
            #expect(storage.holdsTheSameFields(as: storage.copy()), "seed \(seed), round \(round)")
        }
    }

    @Test func aFieldSplitDifferentlyIsNotTheSameField() {
        // The same bytes split another way: name "A" value "b: c" against name "A: b" value "c" (a
        // non-token name) give one and the same wire line but differ.
        let one = HeaderFieldStorage(fieldCapacity: 1, byteCapacity: 16), other = HeaderFieldStorage(fieldCapacity: 1, byteCapacity: 16)
        Array("A".utf8).withUnsafeBufferPointer { name in
            Array("b: c".utf8).withUnsafeBufferPointer { one.append(name: name, value: $0, nameIsToken: false) }
        }
        Array("A: b".utf8).withUnsafeBufferPointer { name in
            Array("c".utf8).withUnsafeBufferPointer { other.append(name: name, value: $0, nameIsToken: false) }
        }
        #expect(one.withWire { Array($0) } == other.withWire { Array($0) })
        #expect(!one.holdsTheSameFields(as: other))
    }
}
