@testable import HTTPWire
import Testing
import TestSupport

/// The raw-memory byte buffer against the safe form it stands in for: an array appended to.
@Suite struct GrowableByteBufferTests {
    @Test(arguments: [0, 1, 15, 16, 17, 64, 511])
    func randomAppendsGiveTheBytesAnArrayGets(initialCapacity: Int) {
        // HLS_TEST_SEED replays a run; the seed is printed and named in every failure.
        var random = SeededGenerator()
        let seed = random.seed
        for round in 0..<50 {
            var buffer = GrowableByteBuffer(capacity: initialCapacity)
            var expected: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                switch Int.random(in: 0...5, using: &random) {
                case 0:
                    let byte = UInt8.random(in: 0...255, using: &random)
                    buffer.append(byte)
                    expected.append(byte)
                case 1:
                    // Runs from empty to several times the initial room, so growth happens mid-run.
                    let run = (0..<Int.random(in: 0...700, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                    buffer.append(run)
                    expected += run
                case 2:
                    let text = String(repeating: "é/a", count: Int.random(in: 0...30, using: &random))
                    buffer.append(utf8: text)
                    expected += Array(text.utf8)
                case 3:
                    let text = "seg?q=1&é" + String(repeating: "x", count: Int.random(in: 0...50, using: &random))
                    let cut = text.dropFirst(Int.random(in: 0...5, using: &random))
                    buffer.append(utf8: cut)
                    expected += Array(cut.utf8)
                case 4:
                    buffer.append("\"redirect\"")
                    expected += Array("\"redirect\"".utf8)
                default:
                    let extra = Int.random(in: 0...300, using: &random)
                    buffer.reserve(extra)
                }
                #expect(buffer.count == expected.count, "seed \(seed), round \(round)")
            }
            #expect(buffer.bytes == expected, "seed \(seed), round \(round)")
            buffer.withBytes { #expect(Array($0) == expected, "seed \(seed), round \(round)") }
        }
    }

    @Test func emptyPiecesAddNothing() {
        var buffer = GrowableByteBuffer(capacity: 0)
        buffer.append([])
        buffer.append(utf8: "")
        buffer.append(UnsafeBufferPointer(start: nil, count: 0))
        #expect(buffer.count == 0)
        #expect(buffer.bytes.isEmpty)
    }

    @Test func aStringAndASubstringOfItAreAppendedAsTheirUTF8() {
        let text = String(decoding: Array("naïve/plain".utf8), as: UTF8.self)
        var buffer = GrowableByteBuffer(capacity: 1)
        buffer.append(utf8: text)
        buffer.append(utf8: text[text.index(after: text.startIndex)...])
        #expect(buffer.bytes == Array(text.utf8) + Array(text.utf8.dropFirst()))
    }
}
