import Foundation
@testable import Proxy
import Testing

/// The buffered writer log lines go through: order, newlines, and the bound on unwritten bytes.
@Suite struct BufferedLineWriterTests {
    /// Reads from `pipe` until `lines` newlines have come (the writer thread sends them on its own).
    private func read(_ lines: Int, from pipe: Pipe) -> String {
        var received = Data()
        while received.reduce(0, { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }) < lines {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received += chunk
        }
        return String(decoding: received, as: UTF8.self)
    }

    @Test func linesArriveInOrderEachEndedByANewline() {
        let pipe = Pipe()
        let writer = BufferedLineWriter(handle: pipe.fileHandleForWriting)
        writer.write("first")
        writer.write(bytes: Array("second".utf8))
        writer.write("")
        writer.write("é€")
        #expect(read(4, from: pipe) == "first\nsecond\n\né€\n")
        #expect(writer.droppedLines == 0)
    }

    @Test func aLineLongerThanTheCapacityIsDroppedAndCounted() {
        let pipe = Pipe()
        let writer = BufferedLineWriter(handle: pipe.fileHandleForWriting, capacity: 10)
        // With its newline a line may take the whole capacity, and not one byte more.
        writer.write(String(repeating: "x", count: 10))
        writer.write(bytes: Array(repeating: UInt8(ascii: "y"), count: 20))
        writer.write("123456789")
        #expect(read(1, from: pipe) == "123456789\n")
        #expect(writer.droppedLines == 2)
    }
}
