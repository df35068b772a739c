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
    /// Whether access lines are made at all (when off, no line is even built).
    public var accessEnabled = true
    /// Receives diagnostic lines (one JSON object each, no newline).
    public var diagnosticSink: @Sendable (String) -> Void

    /// Makes a logger.
    public init(level: LogSeverity, accessSink: @escaping @Sendable (String) -> Void, diagnosticSink: @escaping @Sendable (String) -> Void) {
        self.level = level
        self.accessSink = accessSink
        self.diagnosticSink = diagnosticSink
    }

    /// Writes access lines to stdout (unless `accessLog` is false) and diagnostics to stderr.
    public static func standard(level: LogSeverity, accessLog: Bool = true) -> ProxyLogger {
        var logger = ProxyLogger(
            level: level,
            accessSink: { line in StandardStreams.write(line, toError: false) },
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

    /// Writes out whatever the standard streams still hold; call before the process exits.
    public static func flushStandardStreams() {
        StandardStreams.flush()
    }

    /// Logs one finished request. Built by hand into one string: this runs for every request, often on
    /// the server's loop thread, so it avoids intermediate arrays and number formatting with `String(format:)`.
    func access(
        method: String, path: String, route: String, status: Int, bytes: Int,
        durationMilliseconds: Double, originMilliseconds: Double, client: String
    ) {
        guard accessEnabled else { return }
        var line = ""
        line.reserveCapacity(200 + path.utf8.count)
        line += "{\"time\":\""
        line += Timestamp.now()
        line += "\",\"method\":"
        JSONValue.appendQuoted(method, to: &line)
        line += ",\"path\":"
        JSONValue.appendQuoted(path, to: &line)
        line += ",\"route\":\""
        line += route
        line += "\",\"status\":"
        line += String(status)
        line += ",\"bytes\":"
        line += String(bytes)
        line += ",\"duration_ms\":"
        JSONValue.appendMilliseconds(durationMilliseconds, to: &line)
        line += ",\"origin_ms\":"
        JSONValue.appendMilliseconds(originMilliseconds, to: &line)
        line += ",\"client\":"
        JSONValue.appendQuoted(client, to: &line)
        line += "}"
        accessSink(line)
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

    /// Appends `text` as a JSON string; text that needs no escape is appended in one piece.
    static func appendQuoted(_ text: String, to out: inout String) {
        out += "\""
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
            out += text
            out += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// Appends a non-negative millisecond figure with three decimals (microsecond resolution).
    static func appendMilliseconds(_ value: Double, to out: inout String) {
        guard value.isFinite, value >= 0, value < 1e12 else {
            out += "null"
            return
        }
        let micros = Int64(value * 1000 + 0.5)
        let fraction = micros % 1000
        out += String(micros / 1000)
        out += fraction < 10 ? ".00" : fraction < 100 ? ".0" : "."
        out += String(fraction)
    }
}
