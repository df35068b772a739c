import Testing
@testable import HLS

@Suite struct TextEncodingTests {
    @Test func byteOrderMarksDecideTheEncoding() {
        #expect(TextEncoding.detect([0xEF, 0xBB, 0xBF, 0x41]) == .utf8)
        #expect(TextEncoding.detect([0xFF, 0xFE, 0x41, 0x00]) == .utf16LittleEndian)
        #expect(TextEncoding.detect([0xFE, 0xFF, 0x00, 0x41]) == .utf16BigEndian)
        #expect(TextEncoding.utf8Bytes(from: [0xEF, 0xBB, 0xBF, 0x41]) == [0x41])
    }

    @Test func utf16IsDecodedIncludingSurrogatePairs() {
        // "é😀" = U+00E9, U+1F600 (surrogates D83D DE00), UTF-8 C3 A9 F0 9F 98 80.
        let littleEndian: [UInt8] = [0xFF, 0xFE, 0xE9, 0x00, 0x3D, 0xD8, 0x00, 0xDE]
        let bigEndian: [UInt8] = [0xFE, 0xFF, 0x00, 0xE9, 0xD8, 0x3D, 0xDE, 0x00]
        #expect(TextEncoding.utf8Bytes(from: littleEndian) == [0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80])
        #expect(TextEncoding.utf8Bytes(from: bigEndian) == [0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80])
    }

    @Test func brokenUTF16BecomesReplacementCharacters() {
        // A lone low surrogate, a high surrogate followed by a letter, and an odd trailing byte.
        let bytes: [UInt8] = [0xFF, 0xFE, 0x00, 0xDC, 0x3D, 0xD8, 0x41, 0x00, 0x42]
        #expect(String(decoding: TextEncoding.utf8Bytes(from: bytes), as: UTF8.self) == "\u{FFFD}\u{FFFD}A\u{FFFD}")
    }

    @Test func bomLessUTF16IsRecognisedByItsNULBytes() {
        #expect(TextEncoding.detect(Array("1\n00:00".utf8).flatMap { [$0, 0] }) == .utf16LittleEndian)
        #expect(TextEncoding.detect(Array("1\n00:00".utf8).flatMap { [0, $0] }) == .utf16BigEndian)
    }

    @Test func invalidUTF8FallsBackToWindows1252() {
        // 0x80 euro, 0x9F Y diaeresis, 0xE9 e acute, 0x81 unassigned (kept as the C1 control).
        let bytes: [UInt8] = [0x80, 0x9F, 0xE9, 0x81]
        #expect(TextEncoding.detect(bytes) == .windows1252)
        #expect(String(decoding: TextEncoding.utf8Bytes(from: bytes), as: UTF8.self) == "\u{20AC}\u{178}\u{E9}\u{81}")
    }

    @Test func utf8ValidationRejectsOverlongsSurrogatesAndTruncation() {
        #expect(TextEncoding.isValidUTF8([0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80][...]))
        for invalid: [UInt8] in [[0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                                 [0xE2, 0x82], [0x80], [0xFF]] {
            #expect(!TextEncoding.isValidUTF8(invalid[...]), "\(invalid)")
        }
    }
}
