import HLS

/// libFuzzer entry: MPEG-TS PTS reader, MP4 text-track reader and fragmented-MP4 PTS reader. The
/// input is also split in two at a byte it names, as an init segment and a media segment.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMedia(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? MPEGTSReader.firstPTS(bytes)
    _ = try? MP4TextTrackReader.read(bytes)
    _ = try? FragmentedMP4Reader.firstPTS(initSegment: bytes, mediaSegment: bytes)
    if let first = bytes.first, bytes.count > 1 {
        let split = 1 + Int(first) * (bytes.count - 1) / 255
        _ = try? FragmentedMP4Reader.firstPTS(initSegment: Array(bytes[1..<split]), mediaSegment: Array(bytes[split...]))
    }
    return 0
}
