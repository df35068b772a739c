import HLS

/// libFuzzer entry: SRT to WebVTT, whose output must parse as WebVTT.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSRT(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let document = try? SRTConverter.webVTT(from: bytes) else { return 0 }
    if (try? WebVTTDocument.parse(document.serialized())) == nil { fatalError("converted SRT does not parse as WebVTT") }
    return 0
}
