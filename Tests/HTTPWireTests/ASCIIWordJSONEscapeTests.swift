import HTTPWire
import Testing

/// The word-at-a-time JSON escape check against a plain byte loop.
@Suite struct ASCIIWordJSONEscapeTests {
    private static func plainContainsEscape(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }
    }

    @Test func theWordAtATimeEscapeScanFindsEveryByteThatNeedsOne() {
        // Every byte value at every position of texts of 0-20 bytes, among bytes that need none; a byte
        // past ASCII alone is not UTF-8, so it stands as the replacement character's three bytes.
        for length in 0...20 {
            for position in 0..<max(length, 1) {
                for byte in UInt8.min...UInt8.max {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if length > 0 { bytes[position] = byte }
                    let text = String(decoding: bytes, as: UTF8.self)
                    let expected = bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }
                    #expect(Self.plainContainsEscape(text) == expected)
                    #expect(ASCIIWord.containsJSONEscape(text) == expected, "byte \(byte) at \(position) of \(length)")
                }
            }
        }
    }

    @Test(arguments: ["", "é€", "/segment/é/000.ts", "a\u{1}é", String(repeating: "€", count: 9) + "\"", "ab\\"])
    func multiByteTextIsScannedAsThePlainLoopScansIt(text: String) {
        #expect(ASCIIWord.containsJSONEscape(text) == Self.plainContainsEscape(text))
    }
}
