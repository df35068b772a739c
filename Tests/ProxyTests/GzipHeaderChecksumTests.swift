import Testing
@testable import Proxy

/// RFC 1952 §2.3.1 FHCRC: a gzip header may carry the low 16 bits of its own CRC-32. zlib refuses a
/// member whose header checksum is wrong; the decoder does the same, so the two agree on every input
/// (fuzz/Sources/FuzzInflate compares them).
@Suite struct GzipHeaderChecksumTests {
    /// `OriginClientGzipTests.helloGzip` with FHCRC set and the two checksum bytes after the header.
    static func withHeaderChecksum(_ checksum: UInt16?) -> [UInt8] {
        var header = Array(OriginClientGzipTests.helloGzip.prefix(10))
        header[3] |= 0x02
        let crc = checksum ?? UInt16(truncatingIfNeeded: CRC32.checksum(header[...]))
        return header + [UInt8(crc & 0xFF), UInt8(crc >> 8)] + OriginClientGzipTests.helloGzip.dropFirst(10)
    }

    @Test func aGzipHeaderWithAWrongHeaderChecksumIsRefusedAsZlibRefusesIt() throws {
        let good = try GzipDecoder.decode(Self.withHeaderChecksum(nil), maxOutputBytes: 100)
        #expect(good == Array("WEBVTT\n\nhello hello hello hello\n".utf8))
        let correct = UInt16(truncatingIfNeeded: CRC32.checksum(Self.withHeaderChecksum(nil).prefix(10)))
        #expect(throws: OriginError.badResponse("gzip header checksum mismatch")) {
            try GzipDecoder.decode(Self.withHeaderChecksum(correct ^ 0x0101), maxOutputBytes: 100)
        }
    }

    @Test func aGzipHeaderCutInsideItsHeaderChecksumIsTruncatedNotATrap() {
        let cut = Array(Self.withHeaderChecksum(nil).prefix(11))
        #expect(throws: OriginError.badResponse("gzip body truncated")) { try GzipDecoder.decode(cut, maxOutputBytes: 100) }
        // FNAME running to the end of the body, then FHCRC: the header ends past the bytes there are.
        var unterminated: [UInt8] = [0x1F, 0x8B, 8, 0x08 | 0x02, 0, 0, 0, 0, 0, 3]
        unterminated += Array("name".utf8)
        #expect(throws: OriginError.badResponse("gzip body truncated")) { try GzipDecoder.decode(unterminated, maxOutputBytes: 100) }
    }
}
