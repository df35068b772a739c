// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "hls-subtitle-proxy",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hls-subtitle-proxy", targets: ["hls-subtitle-proxy"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "HLS", targets: ["HLS"]),
        .library(name: "Proxy", targets: ["Proxy"]),
    ],
    targets: [
        // Only includes <sys/epoll.h>, <sys/eventfd.h> and wraps accept4: Glibc's module exports none of them.
        .target(name: "CSystem"),
        .target(name: "HTTPServer", dependencies: ["CSystem"]),
        .target(name: "HLS"),
        .target(name: "Proxy", dependencies: ["HTTPServer", "HLS"]),
        .executableTarget(name: "hls-subtitle-proxy", dependencies: ["Proxy", "HTTPServer"]),
        // Helpers every test target shares: raw-socket client, test origins, waits, fixtures, seeded randomness.
        .target(name: "TestSupport", dependencies: ["HTTPServer"], path: "Tests/TestSupport"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "HLSTests", dependencies: ["HLS", "TestSupport"]),
        // The executable is a dependency so `swift test` builds it for the command-line tests.
        .testTarget(name: "ProxyTests", dependencies: ["Proxy", "HTTPServer", "HLS", "hls-subtitle-proxy", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
