// The driver of bench/path_pattern.sh: compiled with one PathPattern.swift (and Template.swift), not part of the package.
import Foundation
let patterns = ["/sample/master.m3u8", "*.m3u8", "*(format=m3u8-aapl)", "/ams/*/lecture.ism/manifest(format=m3u8-aapl)"].map(PathPattern.init)
let paths = ["/sample/v0/seg000.ts", "/ams/0f1e-22/lecture.ism/QualityLevels(128003)/Fragments(aac_eng=0,format=m3u8-aapl)",
             "/sample/master.m3u8", "/ams/0f1e-22/lecture.ism/manifest(format=m3u8-aapl)", "/sample/v0/index.m3u8"]
var hits = 0
let rounds = 2_000_000
let start = Date()
for i in 0..<rounds { let path = paths[i % paths.count]; for p in patterns where p.matches(path) { hits += 1 } }
let elapsed = Date().timeIntervalSince(start)
print(String(format: "%.1f ns per path (4 plain patterns), hits %d", elapsed * 1e9 / Double(rounds), hits))
#if CAPTURES
let templated = PathPattern("/ams/{locator}/{asset}.ism/manifest(format=m3u8-aapl)")
let s2 = Date()
var h2 = 0
for i in 0..<rounds { if templated.matches(paths[i % paths.count]) { h2 += 1 } }
print(String(format: "%.1f ns per path (the templated Azure pattern), hits %d", Date().timeIntervalSince(s2) * 1e9 / Double(rounds), h2))
let s3 = Date()
var h3 = 0
for _ in 0..<200_000 { if templated.captures(inRawPath: "/ams/0f1e-22/lecture%20one.ism/manifest(format=m3u8-aapl)") != nil { h3 += 1 } }
print(String(format: "%.1f ns per captures(inRawPath:) on a master path, hits %d", Date().timeIntervalSince(s3) * 1e9 / 200_000, h3))
#endif
