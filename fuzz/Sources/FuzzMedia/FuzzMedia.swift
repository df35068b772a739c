import HLS

/// libFuzzer entry: MPEG-TS PTS reader, MP4 text-track reader and fragmented-MP4 PTS reader. The
/// input is also split in two at a byte it names, as an init segment and a media segment. A prefix
/// reading (`ofPrefix:`, `mediaSegmentPrefix:`) that answers must give the whole input's answer:
/// anything else stops the run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMedia(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let wholeTS = try? MPEGTSReader.firstPTS(bytes)
    _ = try? MP4TextTrackReader.read(bytes)
    _ = try? FragmentedMP4Reader.firstPTS(initSegment: bytes, mediaSegment: bytes)
    if let first = bytes.first, bytes.count > 1 {
        let split = 1 + Int(first) * (bytes.count - 1) / 255
        let initSegment = Array(bytes[1..<split])
        let media = Array(bytes[split...])
        let whole = try? FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegment: media)
        // Every prefix a byte apart would be slow on large inputs: up to 64 lengths, evenly spread.
        let step = max(1, media.count / 64)
        for length in stride(from: 0, through: media.count, by: step) {
            if let answer = (try? FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegmentPrefix: Array(media.prefix(length)))) ?? nil {
                precondition(answer == whole, "fMP4 prefix of \(length) bytes answered \(answer), the whole \(String(describing: whole))")
            }
        }
    }
    let step = max(1, bytes.count / 64)
    for length in stride(from: 0, through: bytes.count, by: step) {
        if let answer = MPEGTSReader.firstPTS(ofPrefix: Array(bytes.prefix(length))) {
            precondition(answer == wholeTS, "TS prefix of \(length) bytes answered \(answer), the whole \(String(describing: wholeTS))")
        }
    }
    return 0
}
