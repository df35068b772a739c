// Cost of the strong ETag on a synthesized body: SHA-256 of its bytes, as `EntityTag.make` does.
// A cached master pays it once per store; a subtitle playlist or WebVTT file, made per request,
// pays it per response. Built with -O from Sources/Proxy/Signing/SHA256.swift by bench/etag.sh.
// Process CPU time, best of 5 runs per size: on a shared machine wall time mostly measures the others.
import Glibc

func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

for size in [1_024, 8_192, 65_536, 1_048_576] {
    let body = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let rounds = max(3, 8_388_608 / size)
    var sink: UInt8 = 0
    var best = Double.infinity
    for _ in 0..<5 {
        let start = cpuSeconds()
        for _ in 0..<rounds { sink ^= SHA256.digest(body)[0] }
        best = min(best, cpuSeconds() - start)
    }
    let perBody = best / Double(rounds) * 1e6
    let rate = Double(size) * Double(rounds) / best / 1_048_576
    print("body \(size) bytes: \(Double(Int(perBody * 10)) / 10) us CPU per tag, \(Int(rate)) MiB/s (sink \(sink))")
}
