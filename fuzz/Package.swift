// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for the parsers that read untrusted bytes. A separate package, so the root stays
// dependency-free (zlib, which FuzzInflate compares the inflater with, is linked here only). Build one with:
//   swift build -c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
// (the combined flag: swiftc keeps only the last -sanitize=, which alone left the code uninstrumented;
// lld: the default gold linker drops the coverage counters). fuzz/run.sh does all of it.
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
            name: "FuzzTTML", dependencies: [.product(name: "HLS", package: "hls-subtitle-proxy")], swiftSettings: fuzzFlags),
        .executableTarget(
            name: "FuzzMedia", dependencies: [.product(name: "HLS", package: "hls-subtitle-proxy")], swiftSettings: fuzzFlags),
        .executableTarget(
            name: "FuzzPath",
            dependencies: [
                .product(name: "Proxy", package: "hls-subtitle-proxy"), .product(name: "HTTPServer", package: "hls-subtitle-proxy"),
                .product(name: "HTTPClient", package: "hls-subtitle-proxy"),
            ],
            swiftSettings: fuzzFlags),
        .executableTarget(
            name: "FuzzSignedToken", dependencies: [.product(name: "Proxy", package: "hls-subtitle-proxy")],
            swiftSettings: fuzzFlags),
        // The system zlib (zlib1g-dev), the reference FuzzInflate checks the inflater against.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .executableTarget(
            name: "FuzzInflate", dependencies: [.product(name: "Proxy", package: "hls-subtitle-proxy"), "CZlib"],
            swiftSettings: fuzzFlags),
    ],
    swiftLanguageModes: [.v6]
)
