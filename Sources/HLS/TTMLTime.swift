/// A TTML time as an exact number of seconds (a reduced fraction), so frame and tick arithmetic
/// (TTML1 §10.3.1) rounds once, to the millisecond, at the end. Arithmetic that would overflow gives nil.
struct TTMLTime: Comparable, Sendable {
    /// Non-negative; TTML has no negative times.
    let numerator: Int128
    /// Positive.
    let denominator: Int128

    static let zero = TTMLTime(reducing: 0, 1)

    /// `numerator / denominator`, reduced; nil for a negative value or a zero denominator.
    init?(_ numerator: Int128, _ denominator: Int128) {
        guard numerator >= 0, denominator > 0 else { return nil }
        self.init(reducing: numerator, denominator)
    }

    private init(reducing numerator: Int128, _ denominator: Int128) {
        let divisor = Self.gcd(numerator, denominator)
        self.numerator = numerator / divisor
        self.denominator = denominator / divisor
    }

    /// `self + other`; nil on overflow.
    func adding(_ other: TTMLTime) -> TTMLTime? {
        guard let left = Self.product(numerator, other.denominator), let right = Self.product(other.numerator, denominator),
              let bottom = Self.product(denominator, other.denominator) else { return nil }
        let (sum, overflow) = left.addingReportingOverflow(right)
        return overflow ? nil : TTMLTime(sum, bottom)
    }

    /// `self * factor / divisor`; nil on overflow or a zero divisor.
    func scaled(by factor: Int128, dividedBy divisor: Int128) -> TTMLTime? {
        guard let top = Self.product(numerator, factor), let bottom = Self.product(denominator, divisor) else { return nil }
        return TTMLTime(top, bottom)
    }

    /// The time in milliseconds, rounded half up; nil when it does not fit in Int64.
    var milliseconds: Int64? {
        let (whole, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
        guard let wholeMilliseconds = Self.product(whole, 1000),
              let fraction = Self.product(remainder, 1000) else { return nil }
        // remainder < denominator, so the rounded fraction is at most 1000 and the sum cannot overflow Int128.
        let rounded = (fraction + denominator / 2) / denominator
        return Int64(exactly: wholeMilliseconds + rounded)
    }

    static func < (lhs: TTMLTime, rhs: TTMLTime) -> Bool {
        // Both sides are non-negative, so the full-width products compare as (high, low) pairs.
        let left = lhs.numerator.multipliedFullWidth(by: rhs.denominator)
        let right = rhs.numerator.multipliedFullWidth(by: lhs.denominator)
        return (left.high, left.low) < (right.high, right.low)
    }

    static func == (lhs: TTMLTime, rhs: TTMLTime) -> Bool {
        // Always stored reduced, so equal values have equal parts.
        lhs.numerator == rhs.numerator && lhs.denominator == rhs.denominator
    }

    private static func product(_ a: Int128, _ b: Int128) -> Int128? {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? nil : value
    }

    private static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x == 0 ? 1 : x
    }
}
