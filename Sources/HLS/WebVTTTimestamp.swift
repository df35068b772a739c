/// Reads and writes WebVTT timestamps, `[hh:]mm:ss.ttt`, as Int64 milliseconds.
enum WebVTTTimestamp {
    /// Parses a timestamp starting at `index` in `line` and moves `index` past it; nil when malformed.
    static func parse(_ line: ArraySlice<UInt8>, at index: inout Int) -> Int64? {
        guard index >= line.startIndex else { return nil }
        var offset = index - line.startIndex
        defer { index = line.startIndex + offset }
        return parse(line.span, at: &offset, end: line.count)
    }

    /// Parses a timestamp in `bytes[index..<end]` and moves `index` past it; nil when malformed. The
    /// WebVTT parser passes the whole file and a line's end, so reading a timing line makes no slice.
    ///
    /// W3C WebVTT §6.5 "collect a WebVTT timestamp": hours are any number of digits, minutes and seconds
    /// exactly two (at most 59), the fraction exactly three. Hours that overflow Int64 are malformed.
    static func parse(_ bytes: Span<UInt8>, at index: inout Int, end: Int) -> Int64? {
        let end = min(end, bytes.count)
        guard index >= 0 else { return nil }
        if let time = parseCommonForm(bytes, at: &index, end: end) { return time }
        guard let first = digits(bytes, at: &index, end: end) else { return nil }
        // §6.5: a first field that is not exactly two digits, or exceeds 59, can only be hours.
        let firstIsHours = first.count != 2 || first.value > 59
        guard next(bytes, at: &index, end: end, is: ":"), let second = digits(bytes, at: &index, end: end),
              second.count == 2 else { return nil }
        var hours: Int64 = 0
        var minutes = first.value
        var seconds = second.value
        if firstIsHours || (index < end && bytes[index] == UInt8(ascii: ":")) {
            guard next(bytes, at: &index, end: end, is: ":"), let third = digits(bytes, at: &index, end: end),
                  third.count == 2 else { return nil }
            (hours, minutes, seconds) = (first.value, second.value, third.value)
        }
        guard next(bytes, at: &index, end: end, is: "."), let fraction = digits(bytes, at: &index, end: end),
              fraction.count == 3, minutes <= 59, seconds <= 59 else { return nil }
        let (hourMilliseconds, overflow) = hours.multipliedReportingOverflow(by: 3_600_000)
        guard !overflow else { return nil }
        let (total, sumOverflow) = hourMilliseconds.addingReportingOverflow(minutes * 60_000 + seconds * 1000 + fraction.value)
        return sumOverflow ? nil : total
    }

    /// `hh:mm:ss.ttt` with two-digit hours, or `mm:ss.ttt`, read at fixed offsets: what nearly every file
    /// writes. Nil for anything else, valid or not, which `parse` then reads field by field; a time given
    /// here is the one that reading would give.
    @inline(__always)
    private static func parseCommonForm(_ bytes: Span<UInt8>, at index: inout Int, end: Int) -> Int64? {
        guard index >= 0, end <= bytes.count, end - index >= 9 else { return nil }
        var hours: Int64 = 0
        var start = index
        if index + 12 <= end, bytes[index + 2] == UInt8(ascii: ":"), bytes[index + 5] == UInt8(ascii: ":") {
            guard isDigit(bytes[index]), isDigit(bytes[index + 1]) else { return nil }
            hours = value(bytes[index]) * 10 + value(bytes[index + 1])
            start = index + 3
        }
        // mm:ss.ttt from `start`: nine bytes, all before `end`.
        let after = start + 9
        guard after <= end else { return nil }
        guard bytes[start + 2] == UInt8(ascii: ":"), bytes[start + 5] == UInt8(ascii: "."),
              isDigit(bytes[start]), isDigit(bytes[start + 1]), isDigit(bytes[start + 3]), isDigit(bytes[start + 4]),
              isDigit(bytes[start + 6]), isDigit(bytes[start + 7]), isDigit(bytes[start + 8]) else { return nil }
        let minutes = value(bytes[start]) * 10 + value(bytes[start + 1])
        let seconds = value(bytes[start + 3]) * 10 + value(bytes[start + 4])
        let fraction = value(bytes[start + 6]) * 100 + value(bytes[start + 7]) * 10 + value(bytes[start + 8])
        // §6.5: the fraction is exactly three digits; a fourth makes the timestamp malformed.
        guard minutes <= 59, seconds <= 59, after == end || !isDigit(bytes[after]) else { return nil }
        index = after
        return hours * 3_600_000 + minutes * 60_000 + seconds * 1000 + fraction
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") <= 9
    }

    /// The value of a byte `isDigit` accepted.
    private static func value(_ digit: UInt8) -> Int64 {
        Int64(digit &- UInt8(ascii: "0"))
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

    private static func next(_ bytes: Span<UInt8>, at index: inout Int, end: Int, is character: Unicode.Scalar) -> Bool {
        guard index < end, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// A run of ASCII digits: its value and how many digits it had; nil when there is none or its value
    /// does not fit in Int64. Inlined into `parse`, with no overflow checks while none can happen: a
    /// numbered cue's identifier line is tried as a timing line first, and ends here (68 instructions a
    /// cue less on the 1,500-cue sidecar, bench/README.md "The cold start").
    @inline(__always)
    private static func digits(_ bytes: Span<UInt8>, at index: inout Int, end: Int) -> (value: Int64, count: Int)? {
        var position = index
        var value: Int64 = 0
        var overflowed = false
        while position < end {
            let digit = bytes[position] &- UInt8(ascii: "0")
            guard digit <= 9 else { break }
            if position - index < 18 {
                // Up to eighteen digits the value stays below 10^18 < Int64.max: no overflow is possible.
                value = value &* 10 &+ Int64(digit)
            } else {
                let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowB) = shifted.addingReportingOverflow(Int64(digit))
                overflowed = overflowed || overflowA || overflowB
                value = sum
            }
            position += 1
        }
        defer { index = position }
        guard position > index, !overflowed else { return nil }
        return (value, position - index)
    }
}
