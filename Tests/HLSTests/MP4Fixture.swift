@testable import HLS

/// Builds small ISO BMFF files box by box for tests.
enum MP4Fixture {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    static func be64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }

    /// moov/trak with tkhd (v0), mdia/mdhd (v0) and hdlr.
    static func trak(trackID: UInt32, timescale: UInt32, handler: String = "vide", language: UInt16 = 0x55C4,
                     extra: [UInt8] = []) -> [UInt8] {
        let tkhd = box("tkhd", [0, 0, 0, 3] + be32(0) + be32(0) + be32(trackID) + Array(repeating: 0, count: 68))
        let mdhd = box("mdhd", [0, 0, 0, 0] + be32(0) + be32(0) + be32(timescale) + be32(0) + be16(language) + be16(0))
        let hdlr = box("hdlr", [0, 0, 0, 0] + be32(0) + Array(handler.utf8) + Array(repeating: 0, count: 13))
        return box("trak", tkhd + box("mdia", mdhd + hdlr + extra))
    }

    static func initSegment(trackID: UInt32, timescale: UInt32) -> [UInt8] {
        box("ftyp", Array("iso6".utf8) + be32(0)) + box("moov", trak(trackID: trackID, timescale: timescale))
    }

    static func mediaSegment(trackID: UInt32, baseMediaDecodeTime: UInt64) -> [UInt8] {
        let tfhd = box("tfhd", [0, 0x02, 0, 0] + be32(trackID))
        let tfdt = box("tfdt", [1, 0, 0, 0] + be64(baseMediaDecodeTime))
        return box("moof", box("mfhd", [0, 0, 0, 0] + be32(1)) + box("traf", tfhd + tfdt)) + box("mdat", [])
    }
}
