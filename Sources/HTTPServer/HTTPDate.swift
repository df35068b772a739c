import HTTPWire

/// The `Date` header value in IMF-fixdate form (RFC 9110 §5.6.7), formatted at most once per second.
struct HTTPDate {
    private var formattedSecond: Int64 = -1
    private var cached: [UInt8] = []

    /// The current time as `Sun, 06 Nov 1994 08:49:37 GMT` bytes.
    mutating func current() -> [UInt8] {
        let now = WallClockTime.currentSecond()
        if now != formattedSecond {
            formattedSecond = now
            cached = UTCDateFormat.imfFixdate(now)
        }
        return cached
    }
}
