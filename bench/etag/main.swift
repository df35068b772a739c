// Cost of the strong ETag on a synthesized body: SHA-256 of its bytes, as `EntityTag.make` does.
// A cached master pays it once per store; a subtitle playlist or WebVTT file, made per request,
// pays it per response. Built with -O from Sources/Proxy/SHA256.swift by bench/etag.sh.
let sizes = [1_024, 8_192, 65_536, 1_048_576]
for size in sizes {
    let body = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let rounds = max(3, 16_777_216 / size)
    var sink: UInt8 = 0
    let clock = ContinuousClock()
    let elapsed = clock.measure {
        for _ in 0..<rounds { sink ^= SHA256.digest(body)[0] }
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let perBody = seconds / Double(rounds) * 1e6
    let rate = Double(size) * Double(rounds) / seconds / 1_048_576
    print("body \(size) bytes: \(Double(Int(perBody * 10)) / 10) us per tag, \(Int(rate)) MiB/s (sink \(sink))")
}
