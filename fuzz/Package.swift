// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for the parsers that read untrusted bytes. A separate package, so the root stays
// dependency-free. Build one with:
//   swift build -c release --sanitize=fuzzer --sanitize=address -Xswiftc -use-ld=lld -Xswiftc -sanitize=fuzzer --product FuzzRequestHead
// (lld: the default gold linker drops the coverage counters; -Xswiftc -sanitize=fuzzer instruments the
// library targets, not only the entry file). fuzz/run.sh does all of it.
let fuzzFlags: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "hls-subtitle-proxy-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "hls-subtitle-proxy", path: "..")],
    targets: [
        .executableTarget(
            name: "FuzzRequestHead", dependencies: [.product(name: "HTTPServer", package: "hls-subtitle-proxy")],
            swiftSettings: fuzzFlags),
        .executableTarget(
            name: "FuzzPlaylist", dependencies: [.product(name: "HLS", package: "hls-subtitle-proxy")], swiftSettings: fuzzFlags),
        .executableTarget(
            name: "FuzzWebVTT", dependencies: [.product(name: "HLS", package: "hls-subtitle-proxy")], swiftSettings: fuzzFlags),
        .executableTarget(
            name: "FuzzSRT", dependencies: [.product(name: "HLS", package: "hls-subtitle-proxy")], swiftSettings: fuzzFlags),
        .executableTarget(
            name: "FuzzMedia", dependencies: [.product(name: "HLS", package: "hls-subtitle-proxy")], swiftSettings: fuzzFlags),
    ],
    swiftLanguageModes: [.v6]
)
