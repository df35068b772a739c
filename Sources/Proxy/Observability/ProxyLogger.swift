import Synchronization

/// Diagnostic severity, lowest first.
public enum LogSeverity: Int, Sendable, Comparable {
    case debug, info, warn, error

    /// The name used in config, flags and log lines.
    public var name: String {
        switch self {
        case .debug: return "debug"
        case .info: return "info"
        case .warn: return "warn"
        case .error: return "error"
        }
    }

    /// Parses a level name.
    public init?(name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "warn", "warning": self = .warn
        case "error": self = .error
        default: return nil
        }
    }

    public static func < (a: LogSeverity, b: LogSeverity) -> Bool { a.rawValue < b.rawValue }
}

/// Writes one JSON access line per request and leveled diagnostics, each to its own sink.
///
/// The sinks are closures so tests capture lines in memory and the executable writes stdout/stderr.
public struct ProxyLogger: Sendable {
    /// Diagnostics below this level are dropped.
    public var level: LogSeverity
    /// Receives access lines (one JSON object each, no newline) as UTF-8 bytes: they go to the output
    /// buffer as they are, without becoming a String first.
    public var accessSink: @Sendable ([UInt8]) -> Void
    /// Whether access lines are made at all (when off, no line is even built).
    public var accessEnabled = true
    /// Receives diagnostic lines (one JSON object each, no newline).
    public var diagnosticSink: @Sendable (String) -> Void

    /// Makes a logger.
    public init(
        level: LogSeverity, accessSink: @escaping @Sendable ([UInt8]) -> Void,
        diagnosticSink: @escaping @Sendable (String) -> Void
    ) {
        self.level = level
        self.accessSink = accessSink
        self.diagnosticSink = diagnosticSink
    }

    /// Writes access lines to stdout (unless `accessLog` is false) and diagnostics to stderr.
    public static func standard(level: LogSeverity, accessLog: Bool = true) -> ProxyLogger {
        var logger = ProxyLogger(
            level: level,
            accessSink: { line in StandardStreams.output.write(bytes: line) },
            diagnosticSink: { line in StandardStreams.write(line, toError: true) }
        )
        logger.accessEnabled = accessLog
        return logger
    }

    /// Discards everything.
    public static let silent = ProxyLogger(level: .error, accessSink: { _ in }, diagnosticSink: { _ in })

    /// Logs a diagnostic with structured metadata.
    public func log(_ severity: LogSeverity, _ message: String, _ metadata: [(String, String)] = []) {
        guard severity >= level else { return }
        var fields: [(String, JSONValue)] = [("time", .string(Timestamp.now())), ("level", .string(severity.name)), ("msg", .string(message))]
        fields += metadata.map { ($0.0, .string($0.1)) }
        diagnosticSink(JSONValue.object(fields).encoded)
    }

    /// Whether diagnostics at `severity` are written: check it before building costly metadata.
    @inline(__always)
    public func isEnabled(_ severity: LogSeverity) -> Bool { severity >= level }

    /// Logs a debug diagnostic. Message and metadata are built only at debug level, so the hot paths
    /// pay one comparison at info.
    public func debug(_ message: @autoclosure () -> String, _ metadata: @autoclosure () -> [(String, String)] = []) {
        guard isEnabled(.debug) else { return }
        log(.debug, message(), metadata())
    }

    /// `url` as debug lines show it: no user information, no fragment, and of the query only its
    /// parameter names (`?sig&se`), since query strings carry tokens (SAS signatures) and user
    /// information carries passwords. Values never reach a log line.
    public static func redactedURL(_ url: String) -> String {
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var out = String(rest)
        if let schemeEnd = rest.firstRange(of: "://") {
            let authorityStart = schemeEnd.upperBound
            let authorityEnd = rest[authorityStart...].firstIndex(of: "/") ?? rest.endIndex
            if let at = rest[authorityStart..<authorityEnd].lastIndex(of: "@") {
                out = String(rest[..<authorityStart]) + String(rest[rest.index(after: at)...])
            }
        }
        guard let query, !query.isEmpty else { return out }
        let names = query.split(separator: "&").map { pair in pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
        return out + "?" + names.joined(separator: "&")
    }

    /// Writes out whatever the standard streams still hold; call before the process exits.
    public static func flushStandardStreams() {
        StandardStreams.flush()
    }

    /// Logs one finished request. Built by hand into one string: this runs for every request, often on
    /// the server's loop thread, so it avoids intermediate arrays and number formatting with `String(format:)`.
    func access(
        method: String, path: String, route: ProxyRoute, status: Int, bytes: Int,
        durationMilliseconds: Double, originMilliseconds: Double, client: String
    ) {
        guard accessEnabled else { return }
        // Room for a usual line: one allocation; a very long path grows it.
        var line = LogLineBuilder(capacity: 512)
        line.append("{\"time\":\"")
        Timestamp.append(to: &line)
        line.append("\",\"method\":")
        // Nearly every request is a GET: its quoted form is a literal.
        if method == "GET" { line.append(#""GET""#) } else { line.appendQuoted(method) }
        line.append(",\"path\":")
        line.appendQuoted(path)
        line.append(",\"route\":")
        line.append(bytesOf: route.quotedName)
        line.append(",\"status\":")
        line.appendDecimal(status)
        line.append(",\"bytes\":")
        line.appendDecimal(bytes)
        line.append(",\"duration_ms\":")
        line.appendMilliseconds(durationMilliseconds)
        line.append(",\"origin_ms\":")
        line.appendMilliseconds(originMilliseconds)
        line.append(",\"client\":")
        line.appendQuoted(client)
        line.append("}")
        accessSink(line.bytes)
    }
}

/// A tiny JSON value for log lines, encoded by hand so field order is kept.
public enum JSONValue: Sendable {
    case string(String)
    case int(Int)
    case double(Double)
    case object([(String, JSONValue)])

    /// Compact JSON text.
    public var encoded: String {
        switch self {
        case .string(let text): return JSONValue.quote(text)
        case .int(let value): return String(value)
        case .double(let value):
            var out = ""
            JSONValue.appendMilliseconds(value, to: &out)
            return out
        case .object(let fields):
            return "{" + fields.map { JSONValue.quote($0.0) + ":" + $0.1.encoded }.joined(separator: ",") + "}"
        }
    }

    static func quote(_ text: String) -> String {
        var out = ""
        appendQuoted(text, to: &out)
        return out
    }

    /// Appends `text` as a JSON string.
    static func appendQuoted(_ text: String, to out: inout String) {
        var line = LogLineBuilder(capacity: text.utf8.count + 2)
        line.appendQuoted(text)
        out += line.text
    }

    /// Appends a non-negative millisecond figure with three decimals (microsecond resolution).
    static func appendMilliseconds(_ value: Double, to out: inout String) {
        var line = LogLineBuilder(capacity: 16)
        line.appendMilliseconds(value)
        out += line.text
    }
}
