import Foundation

/// SplitMix64 for tests that use random data: the seed comes from `HLS_TEST_SEED` (decimal, or hex
/// with 0x) or is drawn fresh, and is printed either way, so a failing run can be replayed exactly.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The seed this generator started from.
    public let seed: UInt64
    private var state: UInt64

    /// A generator that starts from `seed` (no printing: for a test that chose its own).
    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A generator seeded from `HLS_TEST_SEED`, or from a fresh seed; prints the seed with the test's name.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, test: String = #function, fileID: String = #fileID) {
        let seed = environment["HLS_TEST_SEED"].flatMap(Self.parse) ?? UInt64.random(in: .min ... .max)
        self.init(seed: seed)
        print("HLS_TEST_SEED=\(seed) (\(fileID) \(test); set it to replay)")
    }

    /// The next SplitMix64 output.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    static func parse(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("0x") { return UInt64(trimmed.dropFirst(2), radix: 16) }
        return UInt64(trimmed)
    }
}
