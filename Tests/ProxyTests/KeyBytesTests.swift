import HLS
import HTTPServer
import HTTPWire
import Testing
import TestSupport
@testable import Proxy

/// Cache keys are length-prefixed parts written into one buffer; they must read as the parts joined
/// `count:part`, so that two different lists of parts never give one key.
@Suite struct KeyBytesTests {
    /// The parts as `count:part`, each count in decimal: the layout the keys promise.
    static func joined(_ parts: [String]) -> String {
        parts.map { "\($0.utf8.count):\($0)" }.joined()
    }

    @Test func partsAndCountsAreWrittenLengthPrefixed() {
        var key = KeyBytes(reserving: 0)
        key.add("m:abc")
        key.add(count: 12)
        key.add("")
        key.add("é")
        #expect(key.string == "5:m:abc2:120:2:é")
    }

    @Test(arguments: [0, 7, 10, 99, 12345, Int.max, Int.min])
    func numbersAreTheirDecimalDigits(value: Int) {
        var key = KeyBytes(reserving: 0)
        key.appendDecimal(value)
        #expect(key.string == String(value))
        var counted = KeyBytes(reserving: 0)
        counted.add(count: value)
        #expect(counted.string == Self.joined([String(value)]))
    }

    @Test func sixtyFourBitPartsAreTheirDecimalDigits() {
        for value in [UInt64.min, 9, 10, UInt64(UInt32.max) + 1, (0.5).bitPattern, (-1.0).bitPattern, UInt64.max] {
            var key = KeyBytes(reserving: 0)
            key.add(number: value)
            #expect(key.string == Self.joined([String(value)]))
        }
    }

    @Test func wideNumbersAreTheirDecimalDigits() {
        for value in [UInt64.min, 9, 10, 10_000_000_000_000_000_000, UInt64.max] {
            var key = KeyBytes(reserving: 0)
            key.appendDecimal(value)
            #expect(key.string == String(value))
        }
        for value in [Int64.min, -1, 0, Int64.max] {
            var key = KeyBytes(reserving: 0)
            key.appendDecimal(value)
            #expect(key.string == String(value))
        }
        // Every power of ten and its neighbours, where the digit count changes, after other bytes.
        var power: UInt64 = 1
        for _ in 0..<20 {
            for value in [power - 1, power, power + 1] {
                var key = KeyBytes(reserving: 0)
                key.add("x")
                key.appendDecimal(value)
                #expect(key.string == "1:x" + String(value))
            }
            power = power &* 10
        }
        var generator = SeededGenerator()
        for _ in 0..<2_000 {
            let value = UInt64.random(in: 0 ... .max, using: &generator) >> UInt64.random(in: 0..<64, using: &generator)
            var key = KeyBytes(reserving: 0)
            key.appendDecimal(value)
            #expect(key.string == String(value), "seed \(generator.seed)")
        }
    }

    @Test func seededPartListsGiveTheJoinedLayoutAndNoTwoListsOneKey() {
        var generator = SeededGenerator()
        let alphabet = ["1", ":", "a", "é", "9:", ""]
        var seen: [String: [String]] = [:]
        for _ in 0..<3_000 {
            let parts = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                (0..<Int.random(in: 0...3, using: &generator)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }.joined()
            }
            var key = KeyBytes(reserving: 8)
            for part in parts { key.add(part) }
            #expect(key.string == Self.joined(parts), "\(parts) (seed \(generator.seed))")
            if let other = seen[key.string] { #expect(other == parts, "\(other) and \(parts) share a key") }
            seen[key.string] = parts
        }
    }

    /// `MemoryCacheKey.make(target:)` writes the URL from the target's location; it must give the key
    /// `make(target.url, target:)` gives, or an entry stored under one is never found under the other.
    @Test(arguments: [
        "/sample/master.m3u8", "/sample/master.m3u8?token=1&x=%20", "/sample/a/b/index.m3u8?", "/files/master.m3u8",
        "/files/sub%20dir/master.m3u8", "/files/a/./b//master.m3u8", "/files/caf%C3%A9.m3u8", "/https/cdn.example/v/master.m3u8?k=v",
    ])
    func aKeyFromTheLocationIsTheKeyFromTheURL(target: String) throws {
        let json = #"{"mounts": {"sample": {"origin": "http://127.0.0.1:9/vod/", "forward_headers": ["Authorization"]}, "files": {"origin": "/tmp"}}, "embedded": {"allow_hosts": ["cdn.example"]}}"#
        let router = RequestRouter(config: try ConfigTestSupport.decode(json))
        let (path, query) = splitTarget(target)
        guard case .origin(let routed) = try router.route(rawPath: path, query: query) else {
            Issue.record("\(target) is not an origin target")
            return
        }
        let headers = HTTPHeaders([("Authorization", "Bearer a"), ("authorization", "Bearer b")])
        let request = HTTPRequest(method: .get, target: target, path: path, rawPath: path, query: query, headers: headers)
        for qualifiers in [[], ["part", "http://127.0.0.1:9/vod/v0/seg0.ts"]] {
            #expect(MemoryCacheKey.make(target: routed, request: request, qualifiers: qualifiers)
                    == MemoryCacheKey.make(routed.url, target: routed, request: request, qualifiers: qualifiers), "\(target)")
        }
    }

    @Test(arguments: ["s", "sample", "é-set", ""])
    func aRewrittenMastersQualifierIsTheSetLengthPrefixedThenTheTarget(name: String) throws {
        let router = RequestRouter(config: try ConfigTestSupport.decode(#"{"mounts": {"sample": {"origin": "http://127.0.0.1:9/vod/"}}}"#))
        guard case .origin(let target) = try router.route(rawPath: "/sample/master.m3u8", query: "token=1") else {
            Issue.record("not an origin target")
            return
        }
        let set = SubtitleSet(name: name, tracks: [])
        #expect(MasterResponder.cacheQualifier(set: set, target: target) == "\(name.utf8.count):\(name)/sample/master.m3u8?token=1")
    }
}

/// A master kept by `MasterTargetRoutes` carries its key when no request can change it; every key made
/// from it must be the one made for the request without it, and a mount that forwards headers keeps none.
@Suite struct RequestIndependentKeyTests {
    @Test(arguments: [
        "/plain/master.m3u8", "/plain/master.m3u8?token=1", "/files/master.m3u8", "/files/caf%C3%A9.m3u8",
        "/https/cdn.example/v/master.m3u8?k=v", "/forwarding/master.m3u8",
    ])
    func aKeptKeyIsTheKeyMadePerRequest(target: String) throws {
        let json = #"""
        {"mounts": {"plain": {"origin": "http://127.0.0.1:9/vod/", "inject_headers": {"X-Key": "k"}},
                    "forwarding": {"origin": "http://127.0.0.1:9/vod/", "forward_headers": ["Authorization"]},
                    "files": {"origin": "/tmp"}},
         "embedded": {"allow_hosts": ["cdn.example"]}}
        """#
        let router = RequestRouter(config: try ConfigTestSupport.decode(json))
        let routes = MasterTargetRoutes()
        let kept = try routes.target(for: target, router: router)
        let (path, query) = splitTarget(target)
        guard case .origin(let routed) = try router.route(rawPath: path, query: query) else {
            Issue.record("\(target) is not an origin target")
            return
        }
        #expect(routed.requestIndependentKey == nil)
        #expect((kept.requestIndependentKey == nil) == target.hasPrefix("/forwarding/"))
        for authorization in ["Bearer a", "Bearer b"] {
            let request = HTTPRequest(method: .get, target: target, path: path, rawPath: path, query: query,
                                      headers: HTTPHeaders([("Authorization", authorization)]))
            #expect(MemoryCacheKey.make(target: kept, request: request) == MemoryCacheKey.make(target: routed, request: request))
            for qualifiers in [["part", "http://127.0.0.1:9/vod/v0/seg0.ts"], ["x"]] {
                #expect(MemoryCacheKey.make(target: kept, request: request, qualifiers: qualifiers)
                        == MemoryCacheKey.make(target: routed, request: request, qualifiers: qualifiers))
                #expect(MemoryCacheKey.make(target: kept, request: request) { key in qualifiers.forEach { key.add($0) } }
                        == MemoryCacheKey.make(routed.url, target: routed, request: request, qualifiers: qualifiers))
            }
        }
    }
}

/// A track's cues are kept under a key that names everything that shapes them; two tracks that differ
/// only in their offset or their MPEGTS value must never share cues.
@Suite struct CueDocumentKeyTests {
    @Test func tracksThatDifferInOffsetOrMPEGTSGetDifferentKeys() throws {
        let router = RequestRouter(config: try ConfigTestSupport.decode(#"{"mounts": {"sample": {"origin": "http://127.0.0.1:9/vod/"}}}"#))
        guard case .origin(let master) = try router.route(rawPath: "/sample/master.m3u8", query: nil) else {
            Issue.record("not an origin target")
            return
        }
        let request = HTTPRequest(method: .get, target: "/x", path: "/x", rawPath: "/x", query: nil, headers: HTTPHeaders())
        let set = SubtitleSet(name: "s", tracks: [])
        var keys: [String: String] = [:]
        for offset in [0, -0.5, 0.5, 1e-9, -1e-9, 3600.25] {
            for mpegts: Int64? in [nil, 0, 900_000, -1, Int64.max] {
                let track = TrackConfig(id: "en", track: SubtitleTrack(name: "English", language: "en"), source: "en.vtt", offset: offset, mpegts: mpegts)
                let key = SubtitleCueLoader.documentKey(set: set, track: track, master: master, request: request)
                let label = "\(offset) \(String(describing: mpegts))"
                #expect(keys[key] == nil, "\(label) shares a key with \(keys[key] ?? "")")
                keys[key] = label
                #expect(key == SubtitleCueLoader.documentKey(set: set, track: track, master: master, request: request))
            }
        }
    }
}
