/// The frame, sub-frame and tick rates a TTML document declares on its root (TTML1 §6.2), which give
/// frames (`f`, `hh:mm:ss:ff`) and ticks (`t`) their length.
struct TTMLTimeParameters: Sendable {
    /// `ttp:frameRate` times `ttp:frameRateMultiplier`, as numerator and denominator (default 30/1).
    var frameRate: (numerator: Int128, denominator: Int128) = (30, 1)
    /// `ttp:frameRate` alone (default 30): frame numbers in a clock time count from 0 to one below it.
    var framesPerSecond: Int128 = 30
    /// `ttp:subFrameRate` (default 1).
    var subFrameRate: Int128 = 1
    /// `ttp:tickRate` as a fraction: its value, or (§6.2.10) the effective frame rate times the
    /// sub-frame rate when only a frame rate is given, else 1.
    var tickRate: (numerator: Int128, denominator: Int128) = (1, 1)

    /// `ttp:timeBase="smpte"`: a time code `hh:mm:ss:ff` labels a frame, counted at the nominal rate
    /// (`framesPerSecond`) and played at the effective one (`frameRate`), TTML1 §10.3.1.
    var smpte = false
    /// `ttp:dropMode` (TTML1 §6.2.3) under smpte: `dropNTSC` skips frame labels 0 and 1 of every minute
    /// but each tenth; anything else counts every label (`nonDrop`; `dropPAL` is refused earlier).
    var dropsNTSCFrames = false

    /// Rates above this are refused as not meant: it keeps every product of rates far from overflow.
    static let maximumRate: Int128 = 100_000_000_000

    /// The rates of `root`; unreadable values keep their defaults, as the spec's defaults are what a
    /// player without them would use.
    init(root: XMLTree.Element, namespaces: Set<String>) {
        let declaredFrameRate = root.attribute("frameRate", in: namespaces).flatMap(Self.positiveInteger)
        let rate = declaredFrameRate ?? 30
        var multiplier: (Int128, Int128) = (1, 1)
        if let text = root.attribute("frameRateMultiplier", in: namespaces) {
            let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Self.positiveInteger(String($0)) }
            if parts.count == 2 { multiplier = (parts[0], parts[1]) }
        }
        frameRate = (rate * multiplier.0, multiplier.1)
        framesPerSecond = rate
        smpte = root.attribute("timeBase", in: namespaces)?.trimmingWhitespace == "smpte"
        dropsNTSCFrames = smpte && root.attribute("dropMode", in: namespaces)?.trimmingWhitespace == "dropNTSC"
        subFrameRate = root.attribute("subFrameRate", in: namespaces).flatMap(Self.positiveInteger) ?? 1
        if let ticks = root.attribute("tickRate", in: namespaces).flatMap(Self.positiveInteger) {
            tickRate = (ticks, 1)
        } else if declaredFrameRate != nil {
            tickRate = (frameRate.numerator * subFrameRate, frameRate.denominator)
        }
    }

    init() {}

    private static func positiveInteger(_ text: String) -> Int128? {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty, trimmed.utf8.count <= 12, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let value = Int128(trimmed), value > 0, value <= maximumRate else { return nil }
        return value
    }
}
