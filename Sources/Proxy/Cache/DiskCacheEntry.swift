/// What the disk cache knows about one stored body: the key it answers for, its length, the response
/// fields to send with it and, for a stored range (a piece), where it sits in the origin object. Stored
/// as a header in front of the body in one file, so a single rename puts both in place together.
struct DiskCacheEntry: Sendable, Equatable {
    /// The cache key (URL plus the values of the mount's forwarded headers).
    var key: String
    /// The body length the origin declared and the cache received in full.
    var length: Int
    /// The origin's response fields passed on with the body (name, value), in order.
    var fields: [(name: String, value: String)]
    /// Where the body sits in the origin object when it is one range of it; nil for a complete object.
    var piece: DiskCachePlacement? = nil

    static func == (a: DiskCacheEntry, b: DiskCacheEntry) -> Bool {
        a.key == b.key && a.length == b.length && a.piece == b.piece
            && a.fields.elementsEqual(b.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// The first line of every entry file; a format change gets a new number and old files are discarded.
    static let magic = "hls-subtitle-proxy disk cache 1"
    /// The longest header read back; entries whose header would be longer are not stored.
    static let maxHeaderBytes = 65_536
    /// Entry files end in this; temp files add `.tmp.<n>` to it.
    static let fileSuffix = ".entry"

    /// The file name of a complete object's entry for a key.
    static func fileName(forKey key: String) -> String {
        keyHash(key) + fileSuffix
    }

    /// The name this entry's file has: a complete object's, or a piece's (which adds its offset).
    var fileName: String {
        guard let piece else { return Self.fileName(forKey: key) }
        return Self.pieceFileName(forKey: key, offset: piece.offset)
    }

    /// 16 hex digits of FNV-1a 64 of a key. Collisions are harmless: the full key is in the header and
    /// is compared on every lookup.
    static func keyHash(_ key: String) -> String {
        // Over the key's contiguous bytes (looked up on every cached request), bounds-checked.
        let bytes = key.utf8.span
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for index in bytes.indices {
            hash ^= UInt64(bytes[index])
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = Array("0123456789abcdef".utf8)
        // Into an array first: the String initializer that writes in place hands out raw memory.
        var text = [UInt8](repeating: 0, count: 16)
        for index in 0..<16 { text[index] = digits[Int(truncatingIfNeeded: hash >> UInt64(60 - 4 * index)) & 0xf] }
        return String(decoding: text, as: UTF8.self)
    }

    /// The header bytes: the magic line, one `name hex-value` line per item, and an empty line. Values
    /// are hex so nothing an origin sends can break the line structure.
    func encodedHeader() -> [UInt8] {
        var text = Self.magic + "\n"
        text += "key \(Self.hex(key))\n"
        text += "length \(length)\n"
        if let piece { text += "piece \(piece.offset) \(piece.objectLength)\n" }
        for field in fields {
            text += "field \(Self.hex(field.name)) \(Self.hex(field.value))\n"
        }
        text += "\n"
        return Array(text.utf8)
    }

    /// Reads a header from the first bytes of an entry file; returns the entry and where the body starts,
    /// or nil for anything malformed.
    static func decodeHeader(_ bytes: [UInt8]) -> (entry: DiskCacheEntry, bodyOffset: Int)? {
        guard let end = bytes.firstRange(of: [0x0a, 0x0a]) else { return nil }
        let lines = bytes[..<end.lowerBound].split(separator: 0x0a, omittingEmptySubsequences: false)
        guard let first = lines.first, String(decoding: first, as: UTF8.self) == magic else { return nil }
        var key: String?
        var length: Int?
        var piece: DiskCachePlacement?
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            let parts = line.split(separator: 0x20, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            switch (parts.first, parts.count) {
            case ("key", 2):
                key = unhex(parts[1])
            case ("length", 2):
                guard let value = decimal(parts[1]) else { return nil }
                length = value
            case ("piece", 3):
                guard let offset = decimal(parts[1]), let objectLength = decimal(parts[2]) else { return nil }
                piece = DiskCachePlacement(offset: offset, objectLength: objectLength)
            case ("field", 3):
                guard let name = unhex(parts[1]), let value = unhex(parts[2]) else { return nil }
                fields.append((name, value))
            default:
                return nil
            }
        }
        guard let key, let length else { return nil }
        // A piece is a non-empty range inside its object; both numbers are at most 18 digits, so the
        // sum cannot overflow.
        if let piece, length == 0 || piece.offset + length > piece.objectLength { return nil }
        return (DiskCacheEntry(key: key, length: length, fields: fields, piece: piece), end.upperBound)
    }

    /// A non-negative decimal of at most 18 digits (so it fits an Int), or nil.
    private static func decimal(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    private static func hex(_ text: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 2)
        for byte in text.utf8 {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func unhex(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count / 2)
        var index = 0
        while index + 1 < bytes.count {
            guard let high = nibble(bytes[index]), let low = nibble(bytes[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}
