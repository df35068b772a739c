/// Where the server reports what happens outside any one request, such as an event loop that cannot
/// go on. The server never writes to a stream itself: the embedding program says where lines go.
public struct HTTPServerLog: Sendable {
    /// How serious a message is.
    public enum Severity: Sendable {
        case info, warning, error
    }

    /// Key/value fields beside a message (the call, the errno name), in the order given.
    public typealias Metadata = [(String, String)]

    private let write: @Sendable (Severity, String, Metadata) -> Void

    /// A log that hands each message and its fields to `write`.
    public init(_ write: @escaping @Sendable (Severity, String, Metadata) -> Void) {
        self.write = write
    }

    /// Drops every message.
    public static let discard = HTTPServerLog { _, _, _ in }

    /// Reports `message` at `severity`, with `metadata` as separate fields.
    func log(_ severity: Severity, _ message: String, _ metadata: Metadata = []) {
        write(severity, message, metadata)
    }
}
