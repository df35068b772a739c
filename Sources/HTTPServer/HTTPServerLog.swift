/// Where the server reports what happens outside any one request, such as an event loop that cannot
/// go on. The server never writes to a stream itself: the embedding program says where lines go.
public struct HTTPServerLog: Sendable {
    /// How serious a message is.
    public enum Severity: Sendable {
        case info, warning, error
    }

    private let write: @Sendable (Severity, String) -> Void

    /// A log that hands each message to `write`.
    public init(_ write: @escaping @Sendable (Severity, String) -> Void) {
        self.write = write
    }

    /// Drops every message.
    public static let discard = HTTPServerLog { _, _ in }

    /// Reports `message` at `severity`.
    func log(_ severity: Severity, _ message: String) {
        write(severity, message)
    }
}
