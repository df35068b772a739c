import Glibc

/// The `Date` header value in IMF-fixdate form (RFC 9110 §5.6.7), formatted at most once per second.
struct HTTPDate {
    private var formattedSecond: time_t = -1
    private var cached: [UInt8] = []

    /// The current time as `Sun, 06 Nov 1994 08:49:37 GMT` bytes.
    mutating func current() -> [UInt8] {
        let now = time(nil)
        if now != formattedSecond {
            formattedSecond = now
            cached = Array(HTTPDate.format(now).utf8)
        }
        return cached
    }

    /// Formats a Unix time as IMF-fixdate.
    static func format(_ seconds: time_t) -> String {
        var moment = seconds
        var parts = tm()
        guard gmtime_r(&moment, &parts) != nil else { return "Thu, 01 Jan 1970 00:00:00 GMT" }
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let day = days[Int(parts.tm_wday) % 7]
        let month = months[Int(parts.tm_mon) % 12]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
