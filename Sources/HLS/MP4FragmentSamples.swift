/// The samples of one track of a fragmented MP4 (ISO/IEC 14496-12 §8.8): `trex` defaults in `moov/mvex`,
/// then every `moof/traf` of the track, with `tfhd` defaults, `tfdt` decode time and `trun` sample runs
/// whose data lies in the file (usually the `mdat` after the `moof`). Counts and offsets come from the file:
/// every run is checked against the bytes present before anything is allocated, and sums never wrap.
enum MP4FragmentSamples {
    private struct Defaults {
        var duration: UInt32 = 0
        var size: UInt32 = 0
    }

    /// The track's samples in decode order; an empty array when no fragment carries the track.
    static func samples(trackID: UInt32, moov: MP4Box, in bytes: [UInt8]) throws(MediaError) -> [MP4SampleTable.Sample] {
        var trackDefaults = Defaults()
        if let mvex = try MP4BoxIterator.first(MP4Box.code("mvex"), in: bytes, range: moov.payload) {
            for trex in try MP4BoxIterator.boxes(bytes, range: mvex.payload) where trex.type == MP4Box.code("trex") {
                var reader = try trex.fullBoxReader(bytes).reader
                guard try reader.readUInt32() == trackID else { continue }
                try reader.skip(4)  // default_sample_description_index
                trackDefaults.duration = try reader.readUInt32()
                trackDefaults.size = try reader.readUInt32()
            }
        }
        var samples: [MP4SampleTable.Sample] = []
        var nextTime: UInt64 = 0
        for moof in try MP4BoxIterator.boxes(bytes, range: 0..<bytes.count) where moof.type == MP4Box.code("moof") {
            let moofStart = try start(of: moof, in: bytes)
            for traf in try MP4BoxIterator.boxes(bytes, range: moof.payload) where traf.type == MP4Box.code("traf") {
                try read(traf: traf, trackID: trackID, moofStart: moofStart, defaults: trackDefaults, in: bytes,
                         time: &nextTime, into: &samples)
            }
        }
        return samples
    }

    private static func read(traf: MP4Box, trackID: UInt32, moofStart: Int, defaults trackDefaults: Defaults, in bytes: [UInt8],
                             time: inout UInt64, into samples: inout [MP4SampleTable.Sample]) throws(MediaError) {
        guard let tfhd = try MP4BoxIterator.first(MP4Box.code("tfhd"), in: bytes, range: traf.payload) else {
            throw .missingBox(type: "tfhd")
        }
        var header = tfhd.reader(bytes)
        try header.skip(1)
        let flags = try header.readUInt24()
        guard try header.readUInt32() == trackID else { return }
        var defaults = trackDefaults
        // §8.8.7: without base-data-offset, offsets count from the moof (default-base-is-moof, and for the
        // first traf of a moof also without it, which is what single-track text fragments are).
        var base = UInt64(moofStart)
        if flags & 0x1 != 0 { base = try header.readUInt64() }
        if flags & 0x2 != 0 { try header.skip(4) }
        if flags & 0x8 != 0 { defaults.duration = try header.readUInt32() }
        if flags & 0x10 != 0 { defaults.size = try header.readUInt32() }
        if let tfdt = try MP4BoxIterator.first(MP4Box.code("tfdt"), in: bytes, range: traf.payload) {
            var (version, reader) = try tfdt.fullBoxReader(bytes)
            time = version == 1 ? try reader.readUInt64() : UInt64(try reader.readUInt32())
        }
        // §8.8.8: a run without data_offset continues where the previous run's data ended.
        var offset = base
        for trun in try MP4BoxIterator.boxes(bytes, range: traf.payload) where trun.type == MP4Box.code("trun") {
            var reader = trun.reader(bytes)
            try reader.skip(1)
            let runFlags = try reader.readUInt24()
            let count = Int(try reader.readUInt32())
            if runFlags & 0x1 != 0 {
                // A signed 32-bit data_offset from the base.
                let dataOffset = Int64(Int32(bitPattern: try reader.readUInt32()))
                guard let moved = Int64(exactly: base).flatMap({ $0.addingReportingOverflow(dataOffset).overflow ? nil : $0 + dataOffset }),
                      moved >= 0 else { throw .truncated }
                offset = UInt64(moved)
            }
            if runFlags & 0x4 != 0 { try reader.skip(4) }  // first_sample_flags
            let perSample = [0x100, 0x200, 0x400, 0x800].filter { runFlags & $0 != 0 }.count * 4
            // Each sample takes perSample bytes here, or (all defaults) at least one byte of data or of file.
            guard count <= (perSample > 0 ? reader.remaining / perSample : bytes.count) else { throw .truncated }
            // Runs may point back at the same data, so the whole file's count is bounded too: a text sample
            // takes at least two bytes of data or four of its run's table, so no file holds more than half
            // its size in samples, and many runs over one mdat cannot multiply it.
            guard count <= bytes.count / 2 - min(samples.count, bytes.count / 2) else { throw .truncated }
            for _ in 0..<count {
                let duration = runFlags & 0x100 != 0 ? try reader.readUInt32() : defaults.duration
                let size = runFlags & 0x200 != 0 ? try reader.readUInt32() : defaults.size
                if runFlags & 0x400 != 0 { try reader.skip(4) }
                if runFlags & 0x800 != 0 { try reader.skip(4) }
                let (end, overflow) = offset.addingReportingOverflow(UInt64(size))
                guard !overflow, end <= UInt64(bytes.count), let lower = Int(exactly: offset), let upper = Int(exactly: end) else {
                    throw .truncated
                }
                samples.append(MP4SampleTable.Sample(range: lower..<upper, time: time, duration: UInt64(duration)))
                let (next, timeOverflow) = time.addingReportingOverflow(UInt64(duration))
                guard !timeOverflow else { throw .timestampOverflow }
                time = next
                offset = end
            }
        }
    }

    /// Where a box's header starts: 8 bytes before its payload, or 16 with a 64-bit largesize (§4.2).
    private static func start(of box: MP4Box, in bytes: [UInt8]) throws(MediaError) -> Int {
        func size(at position: Int) -> UInt64? {
            guard position >= 0, position + 4 <= bytes.count else { return nil }
            return bytes[position..<position + 4].reduce(0) { $0 << 8 | UInt64($1) }
        }
        let compact = box.payload.lowerBound - 8
        if size(at: compact) == UInt64(box.payload.count + 8) { return compact }
        if size(at: box.payload.lowerBound - 16) == 1 { return box.payload.lowerBound - 16 }
        throw .truncated
    }
}
