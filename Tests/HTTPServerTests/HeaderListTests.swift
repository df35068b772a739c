@testable import HTTPServer
@testable import HTTPWire
import TestSupport
import Testing

/// The header list keeps its fields as wire lines; these hold its operations to what a plain list of
/// (name, value) pairs would do, and its fast byte classes to their one-byte definitions.
@Suite struct HeaderListTests {
    /// A plain model of the list: pairs in order, names compared ASCII case-insensitively.
    struct Model {
        var pairs: [(String, String)] = []

        func first(_ name: String) -> String? { pairs.first { HTTPHeaders.equalNames($0.0, name) }?.1 }
        func values(_ name: String) -> [String] { pairs.filter { HTTPHeaders.equalNames($0.0, name) }.map(\.1) }
        mutating func set(_ name: String, _ value: String?) {
            guard let value else {
                pairs.removeAll { HTTPHeaders.equalNames($0.0, name) }
                return
            }
            guard let first = pairs.firstIndex(where: { HTTPHeaders.equalNames($0.0, name) }) else {
                pairs.append((name, value))
                return
            }
            pairs[first].1 = value
            var index = first + 1
            while index < pairs.count {
                if HTTPHeaders.equalNames(pairs[index].0, name) { pairs.remove(at: index) } else { index += 1 }
            }
        }
    }

    static let names = ["Host", "host", "X-A", "x-a", "Content-Length", "Server", "Bad Name", "", "Ünicode", "a:b"]
    static let values = ["", "1", "two words", "tab\there", "bad\r\nX-Evil: 1", "\u{7F}", "é", String(repeating: "v", count: 300)]

    @Test func randomEditsMatchAPlainListOfPairs() {
        var generator = SeededGenerator()
        for _ in 0..<300 {
            var headers = HTTPHeaders()
            var model = Model()
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                let name = Self.names.randomElement(using: &generator) ?? "X"
                let value = Self.values.randomElement(using: &generator) ?? ""
                switch Int.random(in: 0..<5, using: &generator) {
                case 0, 1:
                    headers.add(name: name, value: value)
                    model.pairs.append((name, value))
                case 2:
                    headers[name] = value
                    model.set(name, value)
                case 3:
                    headers.remove(name)
                    model.set(name, nil)
                default:
                    // Another list, or this one, appended whole.
                    let other = Bool.random(using: &generator) ? headers : HTTPHeaders([(name, value), ("X-Other", "o")])
                    let pairs = other.fields.map { ($0.name, $0.value) }
                    headers.append(contentsOf: other)
                    model.pairs.append(contentsOf: pairs)
                }
            }
            #expect(headers.count == model.pairs.count)
            #expect(headers.isEmpty == model.pairs.isEmpty)
            #expect(headers.fields.map(\.name) == model.pairs.map(\.0))
            #expect(headers.fields.map(\.value) == model.pairs.map(\.1))
            for name in Self.names {
                #expect(headers[name] == model.first(name))
                #expect(headers.values(name) == model.values(name))
                #expect(headers.contains(name) == (model.first(name) != nil))
            }
            #expect(headers == HTTPHeaders(model.pairs))
        }
    }

    @Test func theWrittenFieldsLeaveOutServerOwnedAndBadNamesAndSanitizeValues() {
        let headers: HTTPHeaders = ["X-A": "1", "Date": "d", "Bad Name": "v", "X-B": "a\r\nX-Evil: 2", "X-C": "tab\tok"]
        #expect(written(headers) == "X-A: 1\r\nX-B: a  X-Evil: 2\r\nX-C: tab\tok\r\n")
        // Values keep what was given: only the written copy is sanitized.
        #expect(headers["X-B"] == "a\r\nX-Evil: 2")
        // A list appended whole brings its fields' classes along: its Connection is still left out.
        var combined: HTTPHeaders = ["X-A": "1"]
        combined.append(contentsOf: ["Connection": "close", "X-B": "2", "Server": "s"])
        #expect(written(combined) == "X-A: 1\r\nX-B: 2\r\nServer: s\r\n")
        #expect(combined.hasServerField)
    }

    func written(_ headers: HTTPHeaders) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBufferPointer { memory in
            var head = HeadWriter(memory)
            headers.write(into: &head)
            return head.count
        }
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }

    @Test func emptyingAListForReuseNeverTouchesACopyOfIt() {
        var list: HTTPHeaders = ["Host": "a", "X-A": "1"]
        let copy = list
        list.removeAll(keepingCapacity: true)
        #expect(list.isEmpty)
        #expect(copy.fields.map(\.name) == ["Host", "X-A"])
        list.add("Host", "b")
        #expect(list["Host"] == "b")
        #expect(copy["Host"] == "a")
        // Alone, it keeps its memory and starts over: the writer sees only the new fields.
        var alone: HTTPHeaders = ["Date": "d", "Server": "s"]
        alone.removeAll(keepingCapacity: true)
        alone.add("X-B", "2")
        #expect(written(alone) == "X-B: 2\r\n")
        #expect(!alone.hasServerField)
        var empty = HTTPHeaders()
        empty.removeAll(keepingCapacity: true)
        empty.reserveCapacity(3)
        #expect(empty.isEmpty)
    }

    @Test func equalListsHoldTheSameFieldsInTheSameOrder() {
        #expect(HTTPHeaders([("A", "1"), ("B", "2")]) == HTTPHeaders([("A", "1"), ("B", "2")]))
        #expect(HTTPHeaders([("A", "1"), ("B", "2")]) != HTTPHeaders([("B", "2"), ("A", "1")]))
        // The same bytes split differently between name and value are different fields.
        #expect(HTTPHeaders([("a: b", "c")]) != HTTPHeaders([("a", "b: c")]))
    }

    @Test func theTokenBitTableMatchesTheTokenBytes() {
        for byte in UInt8.min...UInt8.max {
            let one = [byte]
            #expect(one.withUnsafeBufferPointer { HTTPSyntax.isToken($0) } == HTTPSyntax.isTokenByte(byte), "byte \(byte)")
        }
        #expect(![UInt8]().withUnsafeBufferPointer { HTTPSyntax.isToken($0) })
    }

    @Test func theWordAtATimeControlScanMatchesTheByteDefinition() {
        // Every byte in every position of buffers of 0-24 bytes, around otherwise ordinary text.
        for length in 0...24 {
            for position in 0..<max(length, 1) {
                for byte in UInt8.min...UInt8.max {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if length > 0 { bytes[position] = byte }
                    let expected = bytes.contains(where: HTTPSyntax.isControl)
                    #expect(bytes.withUnsafeBufferPointer { HTTPSyntax.containsControl($0) } == expected,
                            "byte \(byte) at \(position) of \(length)")
                }
            }
        }
    }
}
