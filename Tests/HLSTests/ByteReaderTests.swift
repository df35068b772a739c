import Testing
@testable import HLS

@Suite struct ByteReaderTests {
    @Test func readsBigEndianIntegersAndStopsAtTheEnd() throws {
        var reader = ByteReader([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07])
        #expect(try reader.readUInt16() == 0x0102)
        #expect(try reader.readUInt32() == 0x0304_0506)
        #expect(throws: MediaError.truncated) { try reader.readUInt16() }
        #expect(try reader.readUInt8() == 0x07)
        #expect(throws: MediaError.truncated) { try reader.readUInt8() }
        #expect(throws: MediaError.truncated) { try reader.skip(-1) }
    }

    @Test func aRangeOutsideTheBytesIsClamped() {
        let reader = ByteReader([1, 2, 3], range: 2..<1000)
        #expect(reader.remaining == 1)
        #expect(ByteReader([1, 2, 3], range: 50..<60).remaining == 0)
    }

    @Test func boxSizeZeroRunsToTheEndAndSizeOneReadsALargesize() throws {
        let toEnd = MP4Fixture.be32(0) + Array("mdat".utf8) + [1, 2, 3]
        #expect(try MP4BoxIterator.boxes(toEnd).map(\.payload) == [8..<11])
        let large = MP4Fixture.be32(1) + Array("mdat".utf8) + MP4Fixture.be64(20) + [9, 9, 9, 9]
        #expect(try MP4BoxIterator.boxes(large).map(\.payload) == [16..<20])
    }

    @Test func lyingBoxSizesAreTypedErrors() {
        let tooLarge = MP4Fixture.be32(100) + Array("moov".utf8) + [0, 0]
        #expect(throws: MediaError.invalidBoxSize(type: "moov")) { try MP4BoxIterator.boxes(tooLarge) }
        let tooSmall = MP4Fixture.be32(4) + Array("free".utf8)
        #expect(throws: MediaError.invalidBoxSize(type: "free")) { try MP4BoxIterator.boxes(tooSmall) }
        let hugeLargesize = MP4Fixture.be32(1) + Array("mdat".utf8) + MP4Fixture.be64(.max)
        #expect(throws: MediaError.invalidBoxSize(type: "mdat")) { try MP4BoxIterator.boxes(hugeLargesize) }
    }

    @Test func deepPathsAreRefused() throws {
        var nested = MP4Fixture.box("leaf", [])
        for _ in 0..<40 { nested = MP4Fixture.box("nest", nested) }
        let path = Array(repeating: MP4Box.code("nest"), count: 40)
        #expect(throws: MediaError.nestingTooDeep) { try MP4BoxIterator.descendant(path, in: nested) }
        let shallow = Array(path.prefix(MP4Box.maximumNestingDepth))
        #expect(try MP4BoxIterator.descendant(shallow, in: nested) != nil)
    }

    @Test func trailingBytesTooShortForAHeaderAreIgnored() throws {
        #expect(try MP4BoxIterator.boxes(MP4Fixture.box("free", []) + [0, 0, 0]).count == 1)
    }

    @Test func mdhdLanguageUnpacksToISOCodes() {
        // 0x55C4 is "und", 0x15C7 "eng" (each letter minus 0x60 in five bits); Macintosh codes carry none.
        #expect(MP4TrackHeader.language(packed: 0x55C4) == "und")
        #expect(MP4TrackHeader.language(packed: 0x15C7) == "eng")
        #expect(MP4TrackHeader.language(packed: 0) == nil)
        #expect(MP4TrackHeader.language(packed: 0x7FFF) == nil)
    }

    @Test func rescalingIsExactRoundedAndOverflowSafe() {
        #expect(Timestamp.rescale(51_200, from: 12_800, to: 90_000, roundingToNearest: false) == 360_000)
        #expect(Timestamp.rescale(178_176, from: 44_100, to: 90_000, roundingToNearest: false) == 363_624)
        #expect(Timestamp.rescale(178_176, from: 44_100, to: 90_000, roundingToNearest: true) == 363_624)
        #expect(Timestamp.rescale(1, from: 2, to: 1, roundingToNearest: true) == 1)
        #expect(Timestamp.rescale(.max, from: 1, to: 90_000, roundingToNearest: false) == nil)
        #expect(Timestamp.rescale(.max, from: 90_000, to: 90_000, roundingToNearest: true) == .max)
        #expect(Timestamp.rescale(5, from: 0, to: 1, roundingToNearest: false) == nil)
    }
}
