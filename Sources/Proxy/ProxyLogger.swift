import Foundation
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
    /// Receives access lines (one JSON object each, no newline).
    public var accessSink: @Sendable (String) -> Void
    /// Receives diagnostic lines (one JSON object each, no newline).
    public var diagnosticSink: @Sendable (String) -> Void

    /// Makes a logger.
    public init(level: LogSeverity, accessSink: @escaping @Sendable (String) -> Void, diagnosticSink: @escaping @Sendable (String) -> Void) {
        self.level = level
        self.accessSink = accessSink
        self.diagnosticSink = diagnosticSink
    }

    /// Writes access lines to stdout and diagnostics to stderr.
    public static func standard(level: LogSeverity) -> ProxyLogger {
        ProxyLogger(
            level: level,
            accessSink: { line in StandardStreams.write(line, toError: false) },
            diagnosticSink: { line in StandardStreams.write(line, toError: true) }
        )
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

    /// Writes out whatever the standard streams still hold; call before the process exits.
    public static func flushStandardStreams() {
        StandardStreams.flush()
    }

    /// Logs one finished request.
    public func access(_ fields: [(String, JSONValue)]) {
        accessSink(JSONValue.object([("time", .string(Timestamp.now()))] + fields).encoded)
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
        case .double(let value): return value.isFinite ? String(format: "%.3f", value) : "null"
        case .object(let fields):
            return "{" + fields.map { JSONValue.quote($0.0) + ":" + $0.1.encoded }.joined(separator: ",") + "}"
        }
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

