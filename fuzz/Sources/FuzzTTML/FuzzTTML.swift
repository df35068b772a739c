import HLS

/// libFuzzer entry: TTML to WebVTT, whose output must parse back as WebVTT to the same cues, sorted by
/// start; a cue cap must hold.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTTML(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let document = try? TTMLConverter.webVTT(from: bytes) else { return 0 }
    guard let reparsed = try? WebVTTDocument.parse(document.serialized()) else { fatalError("converted TTML does not parse as WebVTT") }
    if reparsed.cues != document.cues { fatalError("converted TTML does not read back to the same cues") }
    if zip(document.cues, document.cues.dropFirst()).contains(where: { $0.start > $1.start }) { fatalError("cues not sorted by start") }
    if document.cues.contains(where: { $0.start >= $0.end || $0.payload.isEmpty }) { fatalError("empty or zero-length cue") }
    if let capped = try? TTMLConverter.webVTT(from: bytes, maxCues: 2), capped.cues.count > 2 { fatalError("maxCues not honoured") }
    return 0
}
