/// The proxy-owned URLs of synthesized subtitle playlists and files.
///
/// Everything needed to answer one is in the URL itself, so a subtitle request needs no server-side
/// session and any instance behind a load balancer can answer it:
/// `/_hls-proxy/v1/{set}/{track}/{master}/index.m3u8` and `.../{master}/{n}.vtt`, where `{master}` is
/// the master's proxy request target (path and query, as the player sent it) in unpadded base64url.
struct SubtitleURL: Hashable, Sendable {
    /// The reserved first path segment; config load refuses a mount of this name.
    static let reservedPrefix: StaticString = "_hls-proxy"

    /// What is asked for under a track.
    enum Resource: Hashable, Sendable {
        /// The subtitle media playlist.
        case playlist
        /// WebVTT segment number `n` (0 for the whole file in `single` mode; a live window's media sequence number).
        case segment(Int)
    }

    let setName: String
    let trackID: String
    /// The master's proxy request target, for example `/sample/master.m3u8?token=1`.
    let masterTarget: String
    let resource: Resource
    /// The four fields' hash, taken once when the URL is read: the router keeps each path's reading
    /// (`SubtitleURLs`), so a table keyed by the URL (`SubtitleAnswers`) hashes one number per request
    /// where it hashed three strings (about 400 instructions a subtitle request).
    private let digest: Int

    static func == (a: SubtitleURL, b: SubtitleURL) -> Bool {
        a.digest == b.digest && a.resource == b.resource && a.setName == b.setName && a.trackID == b.trackID
            && a.masterTarget == b.masterTarget
    }

    func hash(into hasher: inout Hasher) { hasher.combine(digest) }

    /// The absolute path of this resource on the proxy.
    var path: String {
        let leaf: String
        switch resource {
        case .playlist: leaf = "index.m3u8"
        case .segment(let index): leaf = "\(index).vtt"
        }
        return "/\(SubtitleURL.reservedPrefix)/v1/\(setName)/\(trackID)/\(Base64URL.encode(Array(masterTarget.utf8)))/\(leaf)"
    }

    /// Parses the path segments that follow the reserved prefix; nil when they are not one of ours.
    init?(segmentsAfterPrefix segments: ArraySlice<Substring>) {
        // Read in place: the segments are the router's array, not copied.
        guard segments.count == 5 else { return nil }
        let start = segments.startIndex
        func part(_ offset: Int) -> Substring { segments[start + offset] }
        let parts = (part(0), part(1), part(2), part(3), part(4))
        guard parts.0 == "v1",
              let bytes = Base64URL.decode(parts.3),
              let target = String(validating: bytes, as: UTF8.self),
              target.hasPrefix("/")
        else { return nil }
        let leaf = parts.4
        let resource: Resource
        if leaf == "index.m3u8" {
            resource = .playlist
        } else if let index = Self.segmentNumber(leaf) {
            resource = .segment(index)
        } else {
            return nil
        }
        self.init(setName: String(parts.1), trackID: String(parts.2), masterTarget: target, resource: resource)
    }

    /// `n` of a `{n}.vtt` leaf: ASCII digits only, read by bytes (no sign, as `Int` would take), and
    /// within Int; nil otherwise.
    static func segmentNumber(_ leaf: Substring) -> Int? {
        let bytes = leaf.utf8.span
        let suffix = Array(".vtt".utf8)
        guard bytes.count > suffix.count else { return nil }
        let digits = bytes.count - suffix.count
        for offset in suffix.indices where bytes[digits + offset] != suffix[offset] { return nil }
        var value = 0
        for index in 0..<digits {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflowA, !overflowB else { return nil }
            value = sum
        }
        return value
    }

    init(setName: String, trackID: String, masterTarget: String, resource: Resource) {
        self.setName = setName
        self.trackID = trackID
        self.masterTarget = masterTarget
        self.resource = resource
        var hasher = Hasher()
        hasher.combine(setName)
        hasher.combine(trackID)
        hasher.combine(masterTarget)
        hasher.combine(resource)
        digest = hasher.finalize()
    }
}

/// Unpadded base64url (RFC 4648 §5), so a master URL fits in one path segment.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let word = b0 << 16 | b1 << 8 | b2
            let available = min(3, bytes.count - index)
            for slot in 0...available {
                out.append(alphabet[Int((word >> UInt32(18 - 6 * slot)) & 63)])
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: Substring) -> [UInt8]? {
        var out: [UInt8] = []
        var word: UInt32 = 0
        var bits = 0
        for char in text.utf8 {
            let value: UInt32
            switch char {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(char - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(char - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(char - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "_"): value = 63
            default: return nil
            }
            word = (word << 6 | value) & 0xFFFFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: word >> UInt32(bits)))
            }
        }
        // A single leftover character (6 bits) cannot come from any input.
        return bits >= 6 ? nil : out
    }
}
