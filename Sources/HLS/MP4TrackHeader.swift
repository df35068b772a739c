/// What one `trak` says about itself: its ID, handler, timescale and language.
struct MP4TrackHeader {
    /// `tkhd` track_ID.
    let trackID: UInt32
    /// `mdia/hdlr` handler_type (`vide`, `soun`, `sbtl`, `text`...).
    let handler: UInt32
    /// `mdia/mdhd` timescale: units per second of this track's times.
    let timescale: UInt32
    /// `mdia/mdhd` language, ISO 639-2/T; nil when unset or a QuickTime Macintosh code.
    let language: String?

    init(trak: MP4Box, in bytes: [UInt8]) throws(MediaError) {
        guard let tkhd = try MP4BoxIterator.first(MP4Box.code("tkhd"), in: bytes, range: trak.payload) else {
            throw .missingBox(type: "tkhd")
        }
        var (version, reader) = try tkhd.fullBoxReader(bytes)
        // §8.3.2: creation and modification times are 64-bit in version 1, 32-bit otherwise.
        try reader.skip(version == 1 ? 16 : 8)
        trackID = try reader.readUInt32()

        guard let mdhd = try MP4BoxIterator.descendant([MP4Box.code("mdia"), MP4Box.code("mdhd")], in: bytes,
                                                       range: trak.payload) else {
            throw .missingBox(type: "mdhd")
        }
        var (mediaVersion, media) = try mdhd.fullBoxReader(bytes)
        try media.skip(mediaVersion == 1 ? 16 : 8)
        timescale = try media.readUInt32()
        try media.skip(mediaVersion == 1 ? 8 : 4)
        language = Self.language(packed: try media.readUInt16())

        let hdlr = try MP4BoxIterator.descendant([MP4Box.code("mdia"), MP4Box.code("hdlr")], in: bytes,
                                                 range: trak.payload)
        if let hdlr {
            var handlerReader = try hdlr.fullBoxReader(bytes).reader
            try handlerReader.skip(4)  // pre_defined
            handler = try handlerReader.readUInt32()
        } else {
            handler = 0
        }
    }

    /// §8.4.2.2: three 5-bit letters, each the letter's code minus 0x60. Values below 0x400 are QuickTime
    /// Macintosh language codes, which carry no ISO code.
    static func language(packed: UInt16) -> String? {
        guard packed >= 0x400, packed != 0x7FFF else { return nil }
        let letters = [10, 5, 0].map { UInt8(truncatingIfNeeded: packed >> $0 & 0x1F) &+ 0x60 }
        guard letters.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }) else { return nil }
        return String(decoding: letters, as: UTF8.self)
    }
}
