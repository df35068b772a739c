import HTTPWire
import Synchronization

/// RFC 3339 UTC timestamps with milliseconds for log lines; the second, formatted by `UTCDateFormat`,
/// is cached.
enum Timestamp {
    /// `2026-01-02T03:04:05` for the second last formatted.
    private static let cache = Mutex<(second: Int64, prefix: [UInt8])>((-1, []))

    static func now() -> String {
        var line = LogLineBuilder(capacity: 24)
        append(to: &line)
        return line.text
    }

    /// Appends the current time, `2026-01-02T03:04:05.678Z`.
    static func append(to line: inout LogLineBuilder) {
        let time = WallClockTime.now()
        let second = time.seconds
        let millis = time.milliseconds
        let prefix = cache.withLock { cached -> [UInt8] in
            if cached.second == second { return cached.prefix }
            cached = (second, UTCDateFormat.logSecond(second))
            return cached.prefix
        }
        line.append(bytesOf: prefix)
        line.appendFraction(millis)
        line.append("Z")
    }
}
