// swift-tools-version:6.0
// A package of its own, so timing the HLS module needs no benchmark target in the main package:
// Sources/HLS is a symlink to the repository's Sources/HLS.
import PackageDescription

let package = Package(
    name: "SubtitleBench",
    targets: [
        .target(name: "HLS"),
        .executableTarget(name: "subtitle-bench", dependencies: ["HLS"]),
        // The sidecar parse alone, for callgrind (bench/README.md "The cold start").
        .executableTarget(name: "parse-bench", dependencies: ["HLS"]),
    ],
    swiftLanguageModes: [.v6]
)
