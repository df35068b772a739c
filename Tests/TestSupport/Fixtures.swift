import Foundation

/// The repository's test fixtures (Tests/Fixtures), found from this file so tests run from any
/// working directory.
public enum Fixtures {
    /// Tests/Fixtures.
    public static let directory = repositoryRoot.appendingPathComponent("Tests/Fixtures")

    /// The package root (where Package.swift is).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // TestSupport
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent()

    /// `Tests/Fixtures/<path>`.
    public static func url(_ path: String) -> URL { directory.appendingPathComponent(path) }
}

/// The bytes of `Tests/Fixtures/<path>`.
public func fixture(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: Fixtures.url(path)))
}
