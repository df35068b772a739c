import HTTPWire

/// Why the server could not start or run: the failed operation and, for system calls, the errno text.
public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    /// The operation with its context, e.g. `bind(127.0.0.1:8080)`.
    public var operation: String
    /// The errno value when a system call failed, nil otherwise.
    public var errorNumber: Int32?
    /// What went wrong in words, e.g. `Address already in use`.
    public var message: String

    /// Makes an error from its parts.
    public init(operation: String, errorNumber: Int32? = nil, message: String) {
        self.operation = operation
        self.errorNumber = errorNumber
        self.message = message
    }

    /// `bind(127.0.0.1:8080): Address already in use`.
    public var description: String { "\(operation): \(message)" }

    /// A streamed body's client went away before the body was sent.
    static let clientGone = HTTPServerError(operation: "write body", message: "client closed the connection")

    /// The symbolic name of an errno value (`EBADF`) for log lines, or `errno N` for one not listed.
    static func errnoName(_ code: Int32) -> String { SystemCall.name(errno: code) }

    /// A failed system call, named with its context, with the errno's text.
    static func system(_ operation: String, errno code: Int32) -> HTTPServerError {
        let text = SystemCall.message(errno: code) ?? "errno \(code)"
        return HTTPServerError(operation: operation, errorNumber: code, message: text)
    }
}
