import HTTPServer

/// libFuzzer entry: the request-head scanner and parser must refuse or accept, never trap, and an
/// accepted head must lie inside the input; the chunked body reader likewise, split anywhere.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if case .request(let request, let length, let contentLength, _) = HTTPRequestHeadParsing.parse(bytes) {
        if length > bytes.count || contentLength < 0 || request.path.isEmpty { fatalError("inconsistent parse") }
    }
    // The same bytes as a chunked body: it must end inside the input, and wherever a read splits it
    // the outcome is the same.
    let whole = HTTPRequestHeadParsing.chunkedBody(bytes)
    if case .complete(let used) = whole, used > bytes.count || used <= 0 { fatalError("chunked body ends outside the input") }
    if HTTPRequestHeadParsing.chunkedBody(bytes, split: size / 2) != whole { fatalError("chunked outcome depends on the split") }
    return 0
}
