import HTTPServer
import HTTPWire

/// Keys of the in-memory caches (masters, playlists, subtitles, timelines).
enum MemoryCacheKey {
    /// The key of an in-memory cache entry made from an origin URL fetched for `target`. It names
    /// everything that can change the bytes or who may see them: the URL form (the mount, with a digest
    /// of its injected headers, or the embedded form), the values of the mount's forwarded headers, the
    /// URL, and what the caller adds (`qualifiers`: subtitle set, track, proxy target). Without the form,
    /// a master fetched with a mount's credentials would be served to a request that carries none.
    static func make(_ url: String, target: OriginTarget, request: HTTPRequest, qualifiers: [String] = []) -> String {
        // Built in one byte buffer: String `+=` of small pieces grew and copied the key piece by piece
        // (a sixth of a cached subtitle file's instructions, bench/README.md).
        var key = KeyBytes(reserving: url.utf8.count + 64)
        addScope(of: target, request: request, to: &key)
        key.add(url)
        for qualifier in qualifiers { key.add(qualifier) }
        return key.string
    }

    /// The key `make(target.url, target: target, ...)` gives, byte for byte, with the URL written
    /// straight from the target's location: no URL string is made first (a subtitle request makes two
    /// or three keys for its master).
    static func make(target: OriginTarget, request: HTTPRequest, qualifiers: [String]) -> String {
        var key = unqualified(target, request: request)
        for qualifier in qualifiers { key.add(qualifier) }
        return key.string
    }

    /// As `make(target:request:qualifiers:)`, with the qualifiers written by `qualify` straight into
    /// the key's bytes (no array of Strings made first).
    static func make(target: OriginTarget, request: HTTPRequest, qualify: (inout KeyBytes) -> Void) -> String {
        var key = unqualified(target, request: request)
        qualify(&key)
        return key.string
    }

    /// The key of `target` with no qualifiers: its kept one, or one made for this request.
    static func make(target: OriginTarget, request: HTTPRequest) -> String {
        target.requestIndependentKey ?? unqualified(target, request: request).string
    }

    /// The key's scope and URL, from the target's `requestIndependentKey` when it has one, with room
    /// for qualifiers after them.
    private static func unqualified(_ target: OriginTarget, request: HTTPRequest) -> KeyBytes {
        if let kept = target.requestIndependentKey {
            var key = KeyBytes(reserving: kept.utf8.count + 96)
            key.append(contentsOf: kept)
            return key
        }
        var key = KeyBytes(reserving: 160)
        addScope(of: target, request: request, to: &key)
        addURL(of: target, to: &key)
        return key
    }

    /// The key `make(target:request:)` gives `target` for every request, or nil when it depends on the
    /// request: the mount forwards headers, whose values are part of the key.
    static func requestIndependentKey(of target: OriginTarget) -> String? {
        if let mount = target.mount, !mount.forwardHeaders.isEmpty { return nil }
        var key = KeyBytes(reserving: 160)
        key.add(target.cacheScope)
        addURL(of: target, to: &key)
        return key.string
    }

    /// The target's origin URL as one part, written from its location.
    private static func addURL(of target: OriginTarget, to key: inout KeyBytes) {
        switch target.location {
        case .whole(let url):
            key.add(url)
        case .joined(let base, let rest, let query):
            key.addJoined(base, rest, query)
        case .file(let path):
            if FileConfinement.isPlain(path.utf8.span) {
                key.addJoined(FileConfinement.fileScheme, path[...], nil, separator: false)
            } else {
                key.add(target.url)
            }
        }
    }

    /// Who the entry is for: the URL form and the values of the mount's forwarded headers.
    private static func addScope(of target: OriginTarget, request: HTTPRequest, to key: inout KeyBytes) {
        key.add(target.cacheScope)
        if let mount = target.mount {
            for name in mount.forwardHeaders {
                let values = request.headers.values(name)
                key.add(count: values.count)
                for value in values { key.add(value) }
            }
        }
    }
}

/// A cache key's bytes: length-prefixed parts (`5:hello`), so no two different lists of parts join
/// into the same key.
struct KeyBytes {
    private var bytes: [UInt8] = []

    init(reserving capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `part` with its length in bytes before it.
    mutating func add(_ part: String) {
        appendDecimal(part.utf8.count)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(copying: part.utf8.span)
    }

    /// Appends `base` + "/" (unless `separator` is false) + `rest` (+ "?" + `query`) as one part, as
    /// `add` would append that joined string.
    mutating func addJoined(_ base: String, _ rest: Substring, _ query: String?, separator: Bool = true) {
        appendDecimal(base.utf8.count + (separator ? 1 : 0) + rest.utf8.count + (query.map { $0.utf8.count + 1 } ?? 0))
        bytes.append(UInt8(ascii: ":"))
        bytes.append(copying: base.utf8.span)
        if separator { bytes.append(UInt8(ascii: "/")) }
        bytes.append(copying: rest.utf8.span)
        if let query {
            bytes.append(UInt8(ascii: "?"))
            bytes.append(copying: query.utf8.span)
        }
    }

    /// Appends a number as a part of its own, as `add(String(count))` would.
    mutating func add(count: Int) {
        appendDecimal((count < 0 ? 1 : 0) + Self.digitCount(UInt64(count.magnitude)))
        bytes.append(UInt8(ascii: ":"))
        appendDecimal(count)
    }

    /// Appends a 64-bit number as a part of its own, as `add(String(number))` would (a Double's or an
    /// Int64's bits, whatever the width of Int).
    mutating func add(number: UInt64) {
        appendDecimal(Self.digitCount(number))
        bytes.append(UInt8(ascii: ":"))
        appendDecimal(number)
    }

    /// How many decimal digits `value` has, counted by comparison.
    private static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var bound: UInt64 = 10
        // 10^19 is the largest power of ten below 2^64: past it there are 20 digits, and no bound.
        while count < 20, value >= bound {
            count += 1
            bound = bound &* 10
        }
        return count
    }

    /// Appends a number's decimal digits, with no length before them.
    mutating func appendDecimal(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude)
    }

    /// Appends a number's decimal digits, with no length before them. The digits are counted by
    /// comparison, then written from the last by dividing by the constant 10 (a multiply): dividing by a
    /// running power of ten was a hardware division per digit, and a file's identity has about 30.
    mutating func appendDecimal(_ value: UInt64) {
        for _ in 0..<Self.digitCount(value) { bytes.append(UInt8(ascii: "0")) }
        var rest = value
        var index = bytes.count - 1
        while rest > 0 {
            bytes[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            index -= 1
        }
    }

    mutating func appendDecimal(_ value: UInt) { appendDecimal(UInt64(value)) }

    mutating func appendDecimal(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude)
    }

    /// Appends bytes as they are (separators between numbers of a fixed layout).
    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends text as it is, with no length before it (a part that ends the key or a qualifier).
    mutating func append(contentsOf text: String) {
        bytes.append(copying: text.utf8.span)
    }

    /// The key as a String (its parts are Strings, so the bytes are valid UTF-8).
    var string: String { String(decoding: bytes, as: UTF8.self) }
}
