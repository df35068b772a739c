import Foundation
import TestSupport
import Testing

/// The README's AVPlayer helper is the file Examples/AVPlayer/ProxyURL.swift. These tests compile
/// that very file with `swiftc` beside a small main and run it on origin URLs with escaped paths,
/// so the snippet a user copies is the one that was checked.
@Suite struct AVPlayerProxyURLTests {
    static let cases: [(origin: String, expected: String)] = [
        ("https://origin.example/vod/movie.ism/manifest(format=m3u8-aapl)",
         "http://127.0.0.1:8080/https/origin.example/vod/movie.ism/manifest(format=m3u8-aapl)"),
        ("https://origin.example/my%20show/master.m3u8",
         "http://127.0.0.1:8080/https/origin.example/my%20show/master.m3u8"),
        ("https://origin.example/a%2Fb/master.m3u8",
         "http://127.0.0.1:8080/https/origin.example/a%2Fb/master.m3u8"),
        ("https://origin.example/100%25/master.m3u8",
         "http://127.0.0.1:8080/https/origin.example/100%25/master.m3u8"),
        ("https://origin.example/%C3%BCber/%E5%AD%97%E5%B9%95.m3u8",
         "http://127.0.0.1:8080/https/origin.example/%C3%BCber/%E5%AD%97%E5%B9%95.m3u8"),
        ("http://origin.example:8081/x/master.m3u8?token=a%2Bb&sig=c%3Dd",
         "http://127.0.0.1:8080/http/origin.example:8081/x/master.m3u8?token=a%2Bb&sig=c%3Dd"),
        ("https://origin.example", "http://127.0.0.1:8080/https/origin.example/"),
    ]

    @Test func theAVPlayerHelperKeepsEscapedOriginPathsAndQueriesAsTheyAreInsteadOfTrapping() throws {
        let root = Fixtures.repositoryRoot
        let helper = root.appendingPathComponent("Examples/AVPlayer/ProxyURL.swift")
        #expect(FileManager.default.fileExists(atPath: helper.path))
        guard let swiftc = Self.findSwiftc() else {
            Issue.record("swiftc not found next to the test toolchain or on PATH")
            return
        }
        let work = FileManager.default.temporaryDirectory
            .appendingPathComponent("avplayer-helper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let main = work.appendingPathComponent("main.swift")
        try """
        import Foundation
        let proxy = URL(string: "http://127.0.0.1:8080/")!
        for line in CommandLine.arguments.dropFirst() {
            print(URL(string: line).flatMap { proxied($0, proxy: proxy) }?.absoluteString ?? "nil")
        }
        """.write(to: main, atomically: true, encoding: .utf8)
        let binary = work.appendingPathComponent("proxyurl")
        let compile = try Self.run(swiftc, ["-swift-version", "6", "-o", binary.path, main.path, helper.path])
        #expect(compile.status == 0, "swiftc failed: \(compile.output)")
        guard compile.status == 0 else { return }
        let result = try Self.run(binary.path, Self.cases.map(\.origin))
        #expect(result.status == 0, "the helper trapped: \(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines == Self.cases.map(\.expected))
    }

    @Test func theREADMEQuotesTheAVPlayerHelperFileWordForWord() throws {
        let root = Fixtures.repositoryRoot
        let helper = try String(contentsOf: root.appendingPathComponent("Examples/AVPlayer/ProxyURL.swift"), encoding: .utf8)
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + helper + "```"))
    }

    static func findSwiftc() -> String? {
        var candidates: [String] = []
        if let toolchain = ProcessInfo.processInfo.environment["SWIFT_EXEC"] { candidates.append(toolchain) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        candidates += path.split(separator: ":").map { "\($0)/swiftc" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
