// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "hls-subtitle-proxy",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hls-subtitle-proxy", targets: ["hls-subtitle-proxy"]),
        .library(name: "HTTPWire", targets: ["HTTPWire"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "HTTPClient", targets: ["HTTPClient"]),
        .library(name: "HLS", targets: ["HLS"]),
        .library(name: "Proxy", targets: ["Proxy"]),
    ],
    targets: [
        // What Glibc's module does not export: <sys/epoll.h> and <sys/eventfd.h>, accept4, the shutdown and
        // reload signals' self-pipe (a C handler writes it), and openat2(RESOLVE_BENEATH) for the file mounts.
        .target(name: "CSystem"),
        // What server and client share: header list, status, method, version, field syntax, the errno
        // loop, the clock and date formats. Depends on nothing of either side. HeadWriter, ByteSearch and
        // FramingFieldName serve only the server but stay here: the shared HTTPHeaders/HTTPSyntax inline
        // them. GrowableByteBuffer serves only Proxy: raw memory's one home is this wire layer (STYLE.md).
        .target(name: "HTTPWire"),
        .target(name: "HTTPServer", dependencies: ["HTTPWire", "CSystem"]),
        .target(name: "HTTPClient", dependencies: ["HTTPWire", "CSystem"]),
        .target(name: "HLS"),
        .target(name: "Proxy", dependencies: ["HTTPWire", "HTTPServer", "HTTPClient", "HLS"]),
        .executableTarget(name: "hls-subtitle-proxy", dependencies: ["Proxy", "HTTPServer", "HTTPWire"]),
        // Helpers every test target shares: raw-socket client, test origins, waits, fixtures, seeded randomness.
        // The TLS test origins reach HTTPClient's OpenSSL loader with `@testable import`, which debug
        // builds (the only ones tests use) allow from any target.
        .target(name: "TestSupport", dependencies: ["HTTPWire", "HTTPServer", "HTTPClient"], path: "Tests/TestSupport"),
        // HTTPClient only as a tool: a few tests read the server's responses with it.
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPWire", "HTTPServer", "HTTPClient", "TestSupport"]),
        // The wire layer's own tests: byte buffer, word-at-a-time escapes, clock and date arithmetic.
        .testTarget(name: "HTTPWireTests", dependencies: ["HTTPWire", "TestSupport"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPWire", "HTTPClient", "TestSupport"]),
        .testTarget(name: "HLSTests", dependencies: ["HLS", "TestSupport"]),
        // The executable is a dependency so `swift test` builds it for the command-line tests.
        .testTarget(name: "ProxyTests", dependencies: ["Proxy", "HTTPWire", "HTTPServer", "HTTPClient", "HLS", "hls-subtitle-proxy", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
