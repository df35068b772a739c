/// Reads and writes WebVTT timestamps, `[hh:]mm:ss.ttt`, as Int64 milliseconds.
enum WebVTTTimestamp {
    /// Parses a timestamp starting at `index` in `line` and moves `index` past it; nil when malformed.
    ///
    /// W3C WebVTT §6.5 "collect a WebVTT timestamp": hours are any number of digits, minutes and seconds
    /// exactly two (at most 59), the fraction exactly three. Hours that overflow Int64 are malformed.
    static func parse(_ line: ArraySlice<UInt8>, at index: inout Int) -> Int64? {
        guard let first = digits(line, at: &index) else { return nil }
        // §6.5: a first field that is not exactly two digits, or exceeds 59, can only be hours.
        let firstIsHours = first.count != 2 || first.value > 59
        guard next(line, at: &index, is: ":"), let second = digits(line, at: &index), second.count == 2 else {
            return nil
        }
        var hours: Int64 = 0
        var minutes = first.value
        var seconds = second.value
        if firstIsHours || (index < line.endIndex && line[index] == UInt8(ascii: ":")) {
            guard next(line, at: &index, is: ":"), let third = digits(line, at: &index), third.count == 2 else {
                return nil
            }
            (hours, minutes, seconds) = (first.value, second.value, third.value)
        }
        guard next(line, at: &index, is: "."), let fraction = digits(line, at: &index), fraction.count == 3,
              minutes <= 59, seconds <= 59 else { return nil }
        let (hourMilliseconds, overflow) = hours.multipliedReportingOverflow(by: 3_600_000)
        guard !overflow else { return nil }
        let (total, sumOverflow) = hourMilliseconds.addingReportingOverflow(minutes * 60_000 + seconds * 1000 + fraction.value)
        return sumOverflow ? nil : total
    }

    /// Appends `hh:mm:ss.ttt` (hours at least two digits, more when needed); negative times are written as 0.
    static func append(_ milliseconds: Int64, to output: inout [UInt8]) {
        let time = max(milliseconds, 0)
        let hours = time / 3_600_000
        if hours < 10 { output.append(UInt8(ascii: "0")) }
        output.append(contentsOf: String(hours).utf8)
        output.append(UInt8(ascii: ":"))
        appendPadded(time / 60_000 % 60, width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        appendPadded(time / 1000 % 60, width: 2, to: &output)
        output.append(UInt8(ascii: "."))
        appendPadded(time % 1000, width: 3, to: &output)
    }

    /// The timestamp as text, `hh:mm:ss.ttt`.
    static func string(_ milliseconds: Int64) -> String {
        var output: [UInt8] = []
        append(milliseconds, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static func appendPadded(_ value: Int64, width: Int, to output: inout [UInt8]) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        var remaining = value
        while divisor > 0 {
            output.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining / divisor % 10))
            remaining %= divisor
            divisor /= 10
        }
    }

    private static func next(_ line: ArraySlice<UInt8>, at index: inout Int, is character: Unicode.Scalar) -> Bool {
        guard index < line.endIndex, line[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// A run of ASCII digits: its value (nil on Int64 overflow) and how many digits it had.
    private static func digits(_ line: ArraySlice<UInt8>, at index: inout Int) -> (value: Int64, count: Int)? {
        var value: Int64 = 0
        var count = 0
        var overflowed = false
        while index < line.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[index]) {
            let digit = Int64(line[index] &- UInt8(ascii: "0"))
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(digit)
            overflowed = overflowed || overflowA || overflowB
            value = sum
            count += 1
            index += 1
        }
        guard count > 0, !overflowed else { return nil }
        return (value, count)
    }
}
