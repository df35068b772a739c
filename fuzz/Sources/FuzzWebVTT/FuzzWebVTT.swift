import HLS

/// libFuzzer entry: WebVTT parse (after encoding detection), shift, segment and serialize.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebVTT(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let document = try? WebVTTDocument.parse(TextEncoding.utf8Bytes(from: bytes)) else { return 0 }
    _ = document.serialized()
    let shifted = document.shifted(by: 1_500)
    let boundaries = SubtitlePlaylistBuilder.boundaries(durations: [2, 6, 6, 0.5, 10])
    for segment in shifted.segmented(boundaries: boundaries) { _ = segment.serialized() }
    // What we serialize must parse again.
    if (try? WebVTTDocument.parse(document.serialized())) == nil { fatalError("serialized WebVTT does not parse") }
    return 0
}
