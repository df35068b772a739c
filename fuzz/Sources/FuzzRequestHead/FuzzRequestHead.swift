import HTTPServer

/// libFuzzer entry: the request-head scanner and parser must refuse or accept, never trap, and an
/// accepted head must lie inside the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if case .request(let request, let length, let contentLength, _) = HTTPRequestHeadParsing.parse(bytes) {
        if length > bytes.count || contentLength < 0 || request.path.isEmpty { fatalError("inconsistent parse") }
    }
    return 0
}
