/// TTML1 §10.3.1 time expressions: `hh:mm:ss`, `hh:mm:ss.fraction`, `hh:mm:ss:frames(.subframes)` and
/// offsets `N(.N)?(h|m|s|ms|f|t)`. Fraction digits past the ninth are dropped (a nanosecond; the
/// result is rounded to milliseconds). Hours may have one digit, as some authoring tools write them.
///
/// TTML2 §10.3.1 bounds the clock-time fields: minutes 0-59; seconds, fraction included, below 60 (60
/// is a leap second, only meaningful with `ttp:timeBase="clock"`, which is refused); frames below
/// `ttp:frameRate`; sub-frames below `ttp:subFrameRate`. A field out of range is a malformed time.
enum TTMLTimeExpression {
    /// The time `text` denotes, or nil when it is not a time expression (or overflows).
    static func parse(_ text: String, parameters: TTMLTimeParameters) -> TTMLTime? {
        try? read(text, parameters: parameters).get()
    }

    /// Why a time expression was refused, for the log.
    struct Refusal: Error, Equatable {
        let reason: String
    }

    /// The time `text` denotes, or why it is not a time expression.
    static func read(_ text: String, parameters: TTMLTimeParameters) -> Result<TTMLTime, Refusal> {
        let bytes = Array(text.trimmingWhitespace.utf8)
        guard !bytes.isEmpty, bytes.count <= 64 else { return .failure(Refusal(reason: bytes.isEmpty ? "empty" : "too long")) }
        let time = bytes.contains(UInt8(ascii: ":")) ? clockTime(bytes, parameters) : offsetTime(bytes, parameters).map { .success($0) }
        return time ?? .failure(Refusal(reason: "not a time expression"))
    }

    private static func clockTime(_ bytes: [UInt8], _ parameters: TTMLTimeParameters) -> Result<TTMLTime, Refusal>? {
        let fields = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard fields.count == 3 || fields.count == 4 else { return nil }
        guard let hours = integer(fields[0]), fields[1].count == 2, let minutes = integer(fields[1]) else { return nil }
        guard minutes < 60 else { return .failure(Refusal(reason: "minutes \(minutes) not below 60")) }
        let seconds: TTMLTime
        var frames: TTMLTime?
        if fields.count == 3 {
            guard let value = decimal(fields[2], integerDigits: 2) else { return nil }
            guard value < TTMLTime(60, 1) ?? .zero else { return .failure(Refusal(reason: "seconds not below 60")) }
            seconds = value
        } else {
            guard fields[2].count == 2, let whole = integer(fields[2]) else { return nil }
            guard whole < 60 else { return .failure(Refusal(reason: "seconds \(whole) not below 60")) }
            if parameters.smpte { return smpteTime(hours: hours, minutes: minutes, seconds: whole, frames: fields[3], parameters) }
            seconds = TTMLTime(whole, 1) ?? .zero
            switch frameTime(fields[3], parameters) {
            case nil: return nil
            case .failure(let refusal): return .failure(refusal)
            case .success(let time): frames = time
            }
        }
        let base = TTMLTime(hours * 3600 + minutes * 60, 1)
        guard let total = base?.adding(seconds) else { return .failure(Refusal(reason: "too large")) }
        guard let frames else { return .success(total) }
        return total.adding(frames).map { .success($0) } ?? .failure(Refusal(reason: "too large"))
    }

    /// A time code under `ttp:timeBase="smpte"` (TTML1 §10.3.1): the frame it labels, counted at the
    /// nominal rate (`ttp:frameRate`), less the labels `dropNTSC` skips (0 and 1 of each minute but
    /// every tenth, §6.2.3), in seconds at the effective rate: 01:00:00:00 at 30 × 1000/1001 is
    /// 108000 frames, 3603.6 s. A label the drop mode skips is malformed.
    private static func smpteTime(
        hours: Int128, minutes: Int128, seconds wholeSeconds: Int128, frames field: ArraySlice<UInt8>, _ parameters: TTMLTimeParameters
    ) -> Result<TTMLTime, Refusal>? {
        let parts = field.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let frame = integer(parts[0]) else { return nil }
        guard frame < parameters.framesPerSecond else {
            return .failure(Refusal(reason: "frame \(frame) not below the frame rate \(parameters.framesPerSecond)"))
        }
        guard hours <= 1_000_000 else { return .failure(Refusal(reason: "too large")) }
        let totalMinutes = hours * 60 + minutes
        var count = (totalMinutes * 60 + wholeSeconds) * parameters.framesPerSecond + frame
        if parameters.dropsNTSCFrames {
            if minutes % 10 != 0, wholeSeconds == 0, frame < 2 {
                return .failure(Refusal(reason: "frame \(frame) is dropped at minute \(minutes) (dropNTSC)"))
            }
            count -= 2 * (totalMinutes - totalMinutes / 10)
        }
        let rate = parameters.frameRate
        guard var time = TTMLTime(count, 1)?.scaled(by: rate.denominator, dividedBy: rate.numerator) else { return .failure(Refusal(reason: "too large")) }
        if parts.count == 2 {
            guard let subFrames = integer(parts[1]) else { return nil }
            guard subFrames < parameters.subFrameRate else {
                return .failure(Refusal(reason: "sub-frame \(subFrames) not below the sub-frame rate \(parameters.subFrameRate)"))
            }
            guard let subTime = TTMLTime(subFrames, 1)?.scaled(by: rate.denominator, dividedBy: rate.numerator),
                  let scaled = subTime.scaled(by: 1, dividedBy: parameters.subFrameRate),
                  let sum = time.adding(scaled) else { return nil }
            time = sum
        }
        return .success(time)
    }

    /// `ff` or `ff.sub`: frames and sub-frames at the effective frame rate, each below its rate.
    private static func frameTime(_ field: ArraySlice<UInt8>, _ parameters: TTMLTimeParameters) -> Result<TTMLTime, Refusal>? {
        let parts = field.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let frames = integer(parts[0]) else { return nil }
        guard frames < parameters.framesPerSecond else {
            return .failure(Refusal(reason: "frame \(frames) not below the frame rate \(parameters.framesPerSecond)"))
        }
        if parts.count == 2, let subFrames = integer(parts[1]), subFrames >= parameters.subFrameRate {
            return .failure(Refusal(reason: "sub-frame \(subFrames) not below the sub-frame rate \(parameters.subFrameRate)"))
        }
        let rate = parameters.frameRate
        // frames / (rateNumerator / rateDenominator) seconds.
        guard var time = TTMLTime(frames, 1)?.scaled(by: rate.denominator, dividedBy: rate.numerator) else { return nil }
        if parts.count == 2 {
            guard let subFrames = integer(parts[1]),
                  let subTime = TTMLTime(subFrames, 1)?.scaled(by: rate.denominator, dividedBy: rate.numerator),
                  let scaled = subTime.scaled(by: 1, dividedBy: parameters.subFrameRate),
                  let sum = time.adding(scaled) else { return nil }
            time = sum
        }
        return .success(time)
    }

    private static func offsetTime(_ bytes: [UInt8], _ parameters: TTMLTimeParameters) -> TTMLTime? {
        guard let numberEnd = bytes.firstIndex(where: { !((0x30...0x39).contains($0) || $0 == UInt8(ascii: ".")) }) else {
            return nil
        }
        let metric = String(decoding: bytes[numberEnd...], as: UTF8.self)
        guard let count = decimal(bytes[..<numberEnd], integerDigits: nil) else { return nil }
        switch metric {
        case "h": return count.scaled(by: 3600, dividedBy: 1)
        case "m": return count.scaled(by: 60, dividedBy: 1)
        case "s": return count
        case "ms": return count.scaled(by: 1, dividedBy: 1000)
        case "f": return count.scaled(by: parameters.frameRate.denominator, dividedBy: parameters.frameRate.numerator)
        case "t": return count.scaled(by: parameters.tickRate.denominator, dividedBy: parameters.tickRate.numerator)
        default: return nil
        }
    }

    /// `digits` or `digits.digits`; `integerDigits` fixes how many digits come before the dot.
    private static func decimal(_ bytes: ArraySlice<UInt8>, integerDigits: Int?) -> TTMLTime? {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let whole = integer(parts[0]) else { return nil }
        if let integerDigits, parts[0].count != integerDigits { return nil }
        guard parts.count == 2 else { return TTMLTime(whole, 1) }
        let kept = parts[1].prefix(9)
        guard !parts[1].isEmpty, parts[1].allSatisfy({ (0x30...0x39).contains($0) }), let fraction = integer(kept) else { return nil }
        var scale: Int128 = 1
        for _ in 0..<kept.count { scale *= 10 }
        return TTMLTime(whole * scale + fraction, scale)
    }

    /// One to eighteen ASCII digits.
    private static func integer(_ bytes: ArraySlice<UInt8>) -> Int128? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value: Int128 = 0
        for byte in bytes {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int128(byte - 0x30)
        }
        return value
    }
}
