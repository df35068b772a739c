import CZlib
import Proxy

/// libFuzzer entry: the hand-written inflater against the system zlib on the same bytes. The first
/// byte picks the wrapper (bit 0: raw DEFLATE or gzip) and the output cap (bits 1-2); the rest is the body.
/// Raw: whatever zlib inflates, ours inflates to the same bytes; whatever zlib refuses (or finds over
/// the cap), ours refuses. Gzip: ours may also read later members, so what it decodes must start
/// with zlib's first member, and a lone member zlib decodes whole must decode here too. Never more
/// than the cap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInflate(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let mode = data[0]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let cap = [1 << 20, 1 << 16, 1 << 10, 64][Int(mode >> 1) & 3]
    if mode & 1 == 0 {
        let reference = Zlib.inflate(body, windowBits: -15, cap: cap)
        let ours = Result { () throws(OriginError) in try GzipDecoder.inflate(raw: body, maxOutputBytes: cap) }
        check(ours, cap: cap)
        switch (reference, ours) {
        case (.decoded(let expected, _), .success(let got)):
            if got != expected { fatalError("inflater output differs from zlib (\(got.count) vs \(expected.count) bytes)") }
        case (.decoded, .failure(let error)):
            fatalError("zlib inflates what the inflater refused: \(error)")
        case (.overCap, .success), (.refused, .success):
            fatalError("the inflater accepted what zlib refused or found over the cap")
        case (.overCap, .failure), (.refused, .failure):
            break
        }
    } else {
        let reference = Zlib.inflate(body, windowBits: 31, cap: cap)
        let ours = Result { () throws(OriginError) in try GzipDecoder.decode(body, maxOutputBytes: cap) }
        check(ours, cap: cap)
        switch (reference, ours) {
        case (.decoded(let expected, _), .success(let got)):
            if !got.starts(with: expected) { fatalError("gzip output does not start with zlib's first member") }
        case (.decoded(_, let consumedAll), .failure(let error)):
            if consumedAll { fatalError("zlib decodes this lone gzip member, the decoder refused it: \(error)") }
        case (.overCap, .success), (.refused, .success):
            fatalError("the gzip decoder accepted a first member zlib refused or found over the cap")
        case (.overCap, .failure), (.refused, .failure):
            break
        }
    }
    return 0
}

/// Success never exceeds the cap.
private func check(_ result: Result<[UInt8], OriginError>, cap: Int) {
    if case .success(let output) = result, output.count > cap { fatalError("output past the cap") }
}

/// The system zlib, one stream at a time.
enum Zlib {
    enum Outcome {
        /// The stream ended; `consumedAll` says no input was left after it.
        case decoded([UInt8], consumedAll: Bool)
        /// More than `cap` bytes came out before the stream ended (or failed).
        case overCap
        /// Corrupt or truncated.
        case refused
    }

    /// Inflates with `windowBits` (-15 raw, 31 gzip only), giving zlib room for one byte past the cap.
    static func inflate(_ input: [UInt8], windowBits: Int32, cap: Int) -> Outcome {
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            fatalError("inflateInit2 failed")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: cap + 1)
        // zlib reads through a non-const pointer it never writes through; a copy keeps that honest.
        var source = input.isEmpty ? [0] : input
        let (status, produced, left) = source.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> (Int32, Int, UInt32) in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = UInt32(input.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = UInt32(outBuffer.count)
                var status = Z_OK
                // Z_OK means progress was made; without any, zlib answers Z_BUF_ERROR and the loop ends.
                while status == Z_OK && stream.avail_out > 0 {
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                return (status, outBuffer.count - Int(stream.avail_out), stream.avail_in)
            }
        }
        if produced > cap { return .overCap }
        guard status == Z_STREAM_END else { return .refused }
        return .decoded(Array(output[..<produced]), consumedAll: left == 0)
    }
}
