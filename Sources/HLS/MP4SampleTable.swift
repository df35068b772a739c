/// Where each sample of a track lies and when it plays, from `moov/trak/mdia/minf/stbl`
/// (ISO/IEC 14496-12 §8.6-8.7). Entry counts are checked against the bytes actually present before
/// anything is allocated.
struct MP4SampleTable {
    /// One sample: its bytes in the file and its decode time and duration in the track's timescale.
    struct Sample {
        let range: Range<Int>
        let time: UInt64
        let duration: UInt64
    }

    private var durations: [(count: UInt32, delta: UInt32)] = []
    private var constantSize: UInt32 = 0
    private var sizes: [UInt32] = []
    private var sampleCount = 0
    private var chunks: [(firstChunk: UInt32, samplesPerChunk: UInt32)] = []
    private var chunkOffsets: [UInt64] = []

    init(stbl: MP4Box, in bytes: [UInt8]) throws(MediaError) {
        let boxes = try MP4BoxIterator.boxes(bytes, range: stbl.payload)
        func table(_ name: String) throws(MediaError) -> (reader: ByteReader, count: Int)? {
            guard let box = boxes.first(where: { $0.type == MP4Box.code(name) }) else { return nil }
            var reader = try box.fullBoxReader(bytes).reader
            if name == "stsz" { return (reader, 0) }
            let count = Int(try reader.readUInt32())
            return (reader, count)
        }
        guard var stts = try table("stts") else { throw .missingBox(type: "stts") }
        try Self.check(stts.count, entrySize: 8, in: stts.reader)
        for _ in 0..<stts.count { durations.append((try stts.reader.readUInt32(), try stts.reader.readUInt32())) }

        guard var stsz = try table("stsz") else { throw .missingBox(type: "stsz") }
        constantSize = try stsz.reader.readUInt32()
        sampleCount = Int(try stsz.reader.readUInt32())
        if constantSize == 0 {
            try Self.check(sampleCount, entrySize: 4, in: stsz.reader)
            sizes.reserveCapacity(sampleCount)
            for _ in 0..<sampleCount { sizes.append(try stsz.reader.readUInt32()) }
        } else {
            // No table to check against: the samples themselves must fit in the file.
            guard UInt64(sampleCount) * UInt64(constantSize) <= UInt64(bytes.count) else { throw .truncated }
        }

        guard var stsc = try table("stsc") else { throw .missingBox(type: "stsc") }
        try Self.check(stsc.count, entrySize: 12, in: stsc.reader)
        for _ in 0..<stsc.count {
            chunks.append((try stsc.reader.readUInt32(), try stsc.reader.readUInt32()))
            try stsc.reader.skip(4)  // sample_description_index
        }

        if var stco = try table("stco") {
            try Self.check(stco.count, entrySize: 4, in: stco.reader)
            for _ in 0..<stco.count { chunkOffsets.append(UInt64(try stco.reader.readUInt32())) }
        } else if var co64 = try table("co64") {
            try Self.check(co64.count, entrySize: 8, in: co64.reader)
            for _ in 0..<co64.count { chunkOffsets.append(try co64.reader.readUInt64()) }
        } else {
            throw .missingBox(type: "stco")
        }
    }

    /// Every sample, in decode order; a sample that points outside `fileLength` is an error.
    func samples(fileLength: Int) throws(MediaError) -> [Sample] {
        var samples: [Sample] = []
        var durationCursor = (entry: 0, usedInEntry: UInt32(0))
        var time: UInt64 = 0
        var chunkEntry = 0
        for (chunkIndex, chunkOffset) in chunkOffsets.enumerated() where samples.count < sampleCount {
            let chunkNumber = UInt32(truncatingIfNeeded: chunkIndex + 1)
            // §8.7.4: an stsc entry covers chunks from its first_chunk up to the next entry's.
            while chunkEntry + 1 < chunks.count, chunks[chunkEntry + 1].firstChunk <= chunkNumber { chunkEntry += 1 }
            guard chunkEntry < chunks.count, chunks[chunkEntry].firstChunk <= chunkNumber else { continue }
            var offset = chunkOffset
            let inChunk = min(Int(chunks[chunkEntry].samplesPerChunk), sampleCount - samples.count)
            for _ in 0..<inChunk {
                let size = UInt64(constantSize != 0 ? constantSize : sizes[samples.count])
                let (end, overflow) = offset.addingReportingOverflow(size)
                guard !overflow, end <= UInt64(fileLength), let lower = Int(exactly: offset),
                      let upper = Int(exactly: end) else { throw .truncated }
                let duration = nextDuration(&durationCursor)
                samples.append(Sample(range: lower..<upper, time: time, duration: duration))
                let (nextTime, timeOverflow) = time.addingReportingOverflow(duration)
                guard !timeOverflow else { throw .timestampOverflow }
                time = nextTime
                offset = end
            }
        }
        return samples
    }

    /// §8.6.1.2: stts run-length codes durations; samples past its end get duration 0.
    private func nextDuration(_ cursor: inout (entry: Int, usedInEntry: UInt32)) -> UInt64 {
        while cursor.entry < durations.count, cursor.usedInEntry >= durations[cursor.entry].count {
            cursor = (cursor.entry + 1, 0)
        }
        guard cursor.entry < durations.count else { return 0 }
        cursor.usedInEntry += 1
        return UInt64(durations[cursor.entry].delta)
    }

    /// Refuses an entry count that the box's remaining bytes cannot hold.
    private static func check(_ count: Int, entrySize: Int, in reader: ByteReader) throws(MediaError) {
        guard count >= 0, count <= reader.remaining / entrySize else { throw .truncated }
    }
}
