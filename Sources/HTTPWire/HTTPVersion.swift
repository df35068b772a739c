/// The HTTP version of a request or response line.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    /// The major digit.
    public var major: Int
    /// The minor digit.
    public var minor: Int

    /// Makes a version.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// `HTTP/1.1`.
    public var description: String { "HTTP/\(major).\(minor)" }

    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
}
