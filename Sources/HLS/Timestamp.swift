/// Timestamp arithmetic that cannot trap on values read from untrusted files.
enum Timestamp {
    /// 90 kHz: the MPEG-2 system clock that PTS and X-TIMESTAMP-MAP's MPEGTS count in.
    static let mpegTicksPerSecond: UInt64 = 90_000

    /// PTS values are 33 bits wide (ISO/IEC 13818-1 §2.4.3.7) and wrap at this modulus.
    static let ptsModulus: Int64 = 1 << 33

    /// `value * newScale / oldScale` without intermediate overflow; nil when the result exceeds 64 bits.
    static func rescale(_ value: UInt64, from oldScale: UInt64, to newScale: UInt64, roundingToNearest: Bool) -> UInt64? {
        guard oldScale > 0 else { return nil }
        let product = value.multipliedFullWidth(by: newScale)
        // dividingFullWidth traps when the quotient does not fit: that is exactly high >= divisor.
        guard product.high < oldScale else { return nil }
        let (quotient, remainder) = oldScale.dividingFullWidth(product)
        guard roundingToNearest, remainder >= oldScale - remainder else { return quotient }
        let (rounded, overflow) = quotient.addingReportingOverflow(1)
        return overflow ? nil : rounded
    }

    /// `a + b`, pinned to the Int64 range instead of trapping.
    static func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        guard overflow else { return sum }
        return b > 0 ? .max : .min
    }
}
