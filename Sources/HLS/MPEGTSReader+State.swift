extension MPEGTSReader {
    /// What has been learned from the packets read so far.
    struct State {
        private var programMapPIDs: Set<Int> = []
        private var streamPIDs: Set<Int>?
        private var firstPTSByPID: [Int: (streamID: UInt8, pts: Int64)] = [:]

        /// Stream types (ISO/IEC 13818-1 table 2-34, plus ATSC and Apple SAMPLE-AES ones) that carry audio or video.
        private static let audioVideoStreamTypes: Set<UInt8> = [
            0x01, 0x02, 0x03, 0x04, 0x0F, 0x10, 0x11, 0x1B, 0x24, 0x81, 0x87, 0xCF, 0xC1, 0xC2, 0xDB, 0xEA,
        ]

        /// True once the PMT is known and each of its audio and video streams has shown a PTS.
        var hasEveryStream: Bool {
            guard let streamPIDs, !streamPIDs.isEmpty else { return false }
            return streamPIDs.allSatisfy { firstPTSByPID[$0] != nil }
        }

        /// The earliest first PTS over the PMT's audio and video streams; without a PMT, over PES stream ids
        /// that mean audio (0xC0-0xDF) or video (0xE0-0xEF).
        func earliestPTS() -> Int64? {
            let fromProgram = (streamPIDs ?? []).compactMap { firstPTSByPID[$0]?.pts }
            if !fromProgram.isEmpty { return MPEGTSReader.earliest(fromProgram) }
            let byStreamID = firstPTSByPID.values.filter { (0xC0...0xEF).contains($0.streamID) }.map(\.pts)
            return MPEGTSReader.earliest(byStreamID)
        }

        /// Reads one 188-byte packet.
        mutating func read(packet: ByteReader) throws(MediaError) {
            var reader = packet
            let header = try reader.readUInt32()
            let transportError = header & 0x0080_0000 != 0
            let payloadUnitStart = header & 0x0040_0000 != 0
            let pid = Int(header >> 8 & 0x1FFF)
            let adaptationFieldControl = header >> 4 & 0x3
            // §2.4.3.2: only packets that start a unit (section or PES) matter here; 01 and 11 carry payload.
            guard !transportError, payloadUnitStart, adaptationFieldControl & 0x1 != 0 else { return }
            if adaptationFieldControl & 0x2 != 0 {
                try reader.skip(Int(try reader.readUInt8()))
            }
            if pid == 0 {
                try readProgramAssociation(&reader)
            } else if programMapPIDs.contains(pid) {
                try readProgramMap(&reader)
            } else if firstPTSByPID[pid] == nil, let pes = try MPEGTSReader.pesTimestamp(&reader) {
                firstPTSByPID[pid] = pes
            }
        }

        /// §2.4.4.3: program_number/PID pairs; program 0 is the network PID, not a PMT.
        private mutating func readProgramAssociation(_ reader: inout ByteReader) throws(MediaError) {
            guard var section = try MPEGTSReader.section(&reader, tableID: 0x00) else { return }
            try section.skip(5)
            while section.remaining >= 4 {
                let program = try section.readUInt16()
                let pid = try section.readUInt16()
                if program != 0 { programMapPIDs.insert(Int(pid & 0x1FFF)) }
            }
        }

        /// §2.4.4.8: stream_type and elementary_PID of each elementary stream, after the program descriptors.
        private mutating func readProgramMap(_ reader: inout ByteReader) throws(MediaError) {
            guard var section = try MPEGTSReader.section(&reader, tableID: 0x02) else { return }
            try section.skip(7)
            try section.skip(Int(try section.readUInt16() & 0x0FFF))
            var pids = streamPIDs ?? []
            while section.remaining >= 5 {
                let streamType = try section.readUInt8()
                let pid = try section.readUInt16()
                let infoLength = try section.readUInt16()
                if Self.audioVideoStreamTypes.contains(streamType) { pids.insert(Int(pid & 0x1FFF)) }
                try section.skip(min(Int(infoLength & 0x0FFF), section.remaining))
            }
            streamPIDs = pids
        }
    }

    /// A reader over one PSI section's body (after section_length, before the CRC); nil for another table.
    static func section(_ reader: inout ByteReader, tableID: UInt8) throws(MediaError) -> ByteReader? {
        try reader.skip(Int(try reader.readUInt8()))  // pointer_field
        guard try reader.readUInt8() == tableID else { return nil }
        let lengthField = try reader.readUInt16()
        // The section may continue in later packets; read what this packet holds, minus the CRC.
        let length = min(Int(lengthField & 0x0FFF), reader.remaining)
        let body = try reader.readRange(max(length - 4, 0))
        return ByteReader(reader.bytes, range: body)
    }

    /// §2.4.3.6-7: the PTS of a PES packet header, with its stream id; nil when the header has none.
    static func pesTimestamp(_ reader: inout ByteReader) throws(MediaError) -> (streamID: UInt8, pts: Int64)? {
        guard try reader.readUInt24() == 0x000001 else { return nil }
        let streamID = try reader.readUInt8()
        try reader.skip(2)  // PES_packet_length
        // '10' marks the MPEG-2 optional header; PTS_DTS_flags '1x' means a PTS follows header_data_length.
        guard try reader.readUInt8() & 0xC0 == 0x80, try reader.readUInt8() & 0x80 != 0 else { return nil }
        try reader.skip(1)
        let high = try reader.readUInt8()
        let low = try reader.readUInt32()
        // 33 bits spread over 5 bytes with marker bits: 3 + 15 + 15.
        let pts = Int64(high >> 1 & 0x07) << 30 | Int64(low >> 17 & 0x7FFF) << 15 | Int64(low >> 1 & 0x7FFF)
        return (streamID, pts)
    }
}
