import Foundation
import Testing
@testable import Proxy

/// Signed playback tokens made and checked without a server: every refusal, at every position class of a
/// tampered token, the size budget, and the worked example of docs/signing.md.
@Suite struct SignedTokenTests {
    /// The worked example's key (docs/signing.md); only for examples and tests.
    static let key = "example-key-do-not-use-0123456789abcdef"
    static let config: ProxyConfig = {
        let json = #"""
            { "mounts": { "sample": { "origin": "http://origin.test/vod" } },
              "embedded": { "allow_hosts": ["cdn.test"] },
              "signing": { "keys": { "k1": "example-key-do-not-use-0123456789abcdef",
                                     "k2": "a-second-key-for-rotation-0123456789" } } }
            """#
        do { return try ProxyConfig.decode(Array(json.utf8), environment: [:]) } catch { fatalError("\(error)") }
    }()
    static let verifier = SignedTokenVerifier(signing: config.signing)
    static let tracks: [ConfigValue] = [
        .object(["language": .string("en"), "name": .string("English"), "source": .string("https://subs.example.com/films/42/en.vtt"),
                 "default": .bool(true)]),
        .object(["language": .string("fr"), "name": .string("Français"), "source": .string("https://subs.example.com/films/42/fr.vtt")]),
    ]
    /// The worked example's expiry: 2030-01-01T00:00:00Z.
    static let expiry: Int64 = 1_893_456_000

    static func token(expiry: Int64 = expiry, master: String = "/sample/master.m3u8", tracks: [ConfigValue] = tracks,
                      keyID: String = "k1", key: String = key) -> String {
        let payload = SignedTokenSigner.payload(expiry: expiry, master: master, tracks: tracks, subtitles: nil, defaultTrack: "fr")
        return SignedTokenSigner.token(keyID: keyID, key: key, payload: payload)
    }

    static func reason(_ token: String, now: Int64 = expiry - 1, grace: Int64 = 0) -> SignedTokenRefusal.Reason? {
        guard case .failure(let refusal) = verifier.verify(token, now: now, graceSeconds: grace) else { return nil }
        return refusal.reason
    }

    @Test func aTokenSignedWithAConfiguredKeyVerifiesWithItsTracksAndChoices() throws {
        let verified = try Self.verifier.verify(Self.token(), now: Self.expiry - 1, graceSeconds: 0).get()
        #expect(verified.keyID == "k1")
        #expect(verified.expiry == Self.expiry)
        #expect(verified.master == "/sample/master.m3u8")
        #expect(verified.tracks.map(\.id) == ["en", "fr"])
        #expect(verified.tracks.map(\.track.name) == ["English", "Français"])
        #expect(verified.tracks[0].track.isDefault)
        #expect(verified.defaultTrack == "fr")
        #expect(verified.subtitles == nil)
    }

    @Test func eitherConfiguredKeyVerifiesItsOwnTokensOnly() {
        #expect(Self.reason(Self.token(keyID: "k2", key: "a-second-key-for-rotation-0123456789")) == nil)
        // Signed with k1's secret but naming k2: the MAC is checked with k2's.
        #expect(Self.reason(Self.token(keyID: "k2", key: Self.key)) == .badSignature)
    }

    /// The worked example in docs/signing.md, byte for byte: this signer, the doc and tools/sign.py agree.
    @Test func theWorkedExampleOfTheDocsIsWhatTheSignerMakes() throws {
        let payload = SignedTokenSigner.payload(expiry: Self.expiry, master: "/sample/master.m3u8", tracks: Self.tracks, subtitles: nil, defaultTrack: "fr")
        #expect(String(decoding: payload, as: UTF8.self) == Self.examplePayload)
        #expect(Self.token() == Self.exampleToken)
        let doc = try String(contentsOfFile: RealPlayerTests.repositoryRoot + "/docs/signing.md", encoding: .utf8)
        #expect(doc.contains(Self.examplePayload), "docs/signing.md does not show the payload")
        #expect(doc.contains(Self.exampleToken), "docs/signing.md does not show the token")
        #expect(doc.contains(Self.key), "docs/signing.md does not show the key")
    }

    static let examplePayload = #"{"default":"fr","exp":1893456000,"master":"/sample/master.m3u8","tracks":[{"default":true,"language":"en","name":"English","source":"https://subs.example.com/films/42/en.vtt"},{"language":"fr","name":"Français","source":"https://subs.example.com/films/42/fr.vtt"}]}"#
    static let exampleToken = "k1.eyJkZWZhdWx0IjoiZnIiLCJleHAiOjE4OTM0NTYwMDAsIm1hc3RlciI6Ii9zYW1wbGUvbWFzdGVyLm0zdTgiLCJ0cmFja3MiOlt7ImRlZmF1bHQiOnRydWUsImxhbmd1YWdlIjoiZW4iLCJuYW1lIjoiRW5nbGlzaCIsInNvdXJjZSI6Imh0dHBzOi8vc3Vicy5leGFtcGxlLmNvbS9maWxtcy80Mi9lbi52dHQifSx7Imxhbmd1YWdlIjoiZnIiLCJuYW1lIjoiRnJhbsOnYWlzIiwic291cmNlIjoiaHR0cHM6Ly9zdWJzLmV4YW1wbGUuY29tL2ZpbG1zLzQyL2ZyLnZ0dCJ9XX0.qFqsP6hzVcfBnBEWa8y9ljFKGD0hKl6XxtprkspFN9E"

    /// tools/sign.py, the signer app teams copy, run on the worked example.
    @Test func thePythonSignerMakesTheWorkedExample() throws {
        guard let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile) else {
            Issue.record("python3 is not installed: tools/sign.py cannot be checked")
            return
        }
        let tracks = FileManager.default.temporaryDirectory.appendingPathComponent("tracks-\(UUID().uuidString).json")
        try Data(#"[{"language":"en","name":"English","source":"https://subs.example.com/films/42/en.vtt","default":true},{"language":"fr","name":"Français","source":"https://subs.example.com/films/42/fr.vtt"}]"#.utf8).write(to: tracks)
        defer { try? FileManager.default.removeItem(at: tracks) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [RealPlayerTests.repositoryRoot + "/tools/sign.py", "--key-id", "k1", "--key", Self.key,
                             "--master", "/sample/master.m3u8", "--tracks", tracks.path, "--exp", String(Self.expiry), "--default", "fr"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: data, as: UTF8.self) == "/_hls-proxy/v1/signed/\(Self.exampleToken)/master.m3u8\n")
    }

    /// A change anywhere is refused, with the reason its position calls for: a key id changed to
    /// another well-formed one names an unknown key; a change in the payload or the signature (first,
    /// middle, last character, including the signature's unused low bits) fails the MAC; a dot added,
    /// a dot removed or a cut that loses a part breaks the `{key id}.{payload}.{signature}` shape.
    @Test func aTokenTamperedAtAnyPositionIsRefusedForThatPositionsReason() {
        let token = Array(Self.token().utf8)
        let dots = token.indices.filter { token[$0] == UInt8(ascii: ".") }
        #expect(dots.count == 2)
        let keyID = [0, 1]
        let payload = [dots[0] + 1, (dots[0] + dots[1]) / 2, dots[1] - 1]
        let signature = [dots[1] + 1, (dots[1] + token.count) / 2, token.count - 1]
        func expected(at position: Int, replacement: UInt8) -> SignedTokenRefusal.Reason {
            // A third dot, or one of the two gone: the shape no longer holds, wherever it happens.
            if replacement == UInt8(ascii: ".") || dots.contains(position) { return .malformed }
            // "A1", "kB", "k-": still letters, digits and "-", but no configured key (k1, k2).
            if keyID.contains(position) { return .unknownKey }
            return .badSignature
        }
        var checked = 0
        for position in keyID + [dots[0]] + payload + [dots[1]] + signature {
            for replacement in [UInt8(ascii: "A"), UInt8(ascii: "B"), UInt8(ascii: "-"), UInt8(ascii: ".")] where token[position] != replacement {
                var changed = token
                changed[position] = replacement
                let reason = Self.reason(String(decoding: changed, as: UTF8.self))
                let want = expected(at: position, replacement: replacement)
                #expect(reason == want, "a change to \(Character(Unicode.Scalar(replacement))) at \(position) gave \(String(describing: reason)), not \(want)")
                checked += 1
            }
        }
        // Eleven positions, three or four replacements each (none equal to what is there).
        #expect(checked >= 33)
        // Cuts: nothing, inside the key id, at either dot or just after it (a part left empty) are
        // malformed; one character off the signature keeps the shape and fails the MAC.
        let cuts: [(Int, SignedTokenRefusal.Reason)] = [
            (0, .malformed), (1, .malformed), (dots[0], .malformed), (dots[0] + 1, .malformed), (dots[1], .malformed),
            (dots[1] + 1, .malformed), (token.count - 1, .badSignature),
        ]
        for (length, want) in cuts {
            let reason = Self.reason(String(decoding: token.prefix(length), as: UTF8.self))
            #expect(reason == want, "the first \(length) bytes gave \(String(describing: reason)), not \(want)")
        }
        // One character added after the signature, or a signature that is not base64url at all.
        #expect(Self.reason(String(decoding: token, as: UTF8.self) + "A") == .badSignature)
        #expect(Self.reason(String(decoding: token[...dots[1]], as: UTF8.self) + "!!!!") == .badSignature)
        // The payload swapped for another token's (same key, other expiry): its MAC is not this one's.
        let other = Array(Self.token(expiry: Self.expiry + 1).utf8)
        let otherDots = other.indices.filter { other[$0] == UInt8(ascii: ".") }
        let spliced = Array(other[..<otherDots[1]]) + Array(token[dots[1]...])
        #expect(Self.reason(String(decoding: spliced, as: UTF8.self)) == .badSignature)
    }

    @Test func theSignatureIsCheckedBeforeThePayloadIsRead() {
        // A payload that is not even base64url, behind a bad signature: refused as a bad signature.
        #expect(Self.reason("k1.!!!notbase64!!!.AAAA") == .badSignature)
        // The same garbage correctly signed: only then is it read, and refused as malformed.
        let signed = "k1.!!!notbase64!!!"
        let mac = Base64URL.encode(HMACSHA256.authenticationCode(for: Array(signed.utf8), key: Array(Self.key.utf8)))
        #expect(Self.reason(signed + "." + mac) == .malformed)
        // An unknown key id is refused before any MAC is computed.
        #expect(Self.reason(Self.token(keyID: "k9")) == .unknownKey)
    }

    @Test(arguments: ["", ".", "..", "k1..", "k1.abc", "k1.abc.def.ghi", ".abc.def", "k 1.abc.def", "k%31.abc.def",
                      String(repeating: "k", count: 65) + ".abc.def", "k1.abc." + String(repeating: "A", count: 8200)])
    func malformedTokensAreRefusedAsMalformed(token: String) {
        #expect(Self.reason(token) == .malformed)
    }

    @Test func signedPayloadsThatAreNotTokensAreRefusedAsMalformed() {
        func signed(_ json: String) -> String {
            SignedTokenSigner.token(keyID: "k1", key: Self.key, payload: Array(json.utf8))
        }
        #expect(Self.reason(signed("not json")) == .malformed)
        #expect(Self.reason(signed("[1]")) == .malformed)
        #expect(Self.reason(signed(#"{"master":"/sample/master.m3u8","tracks":[]}"#)) == .malformed)
        #expect(Self.reason(signed(#"{"exp":1893456000,"master":"sample/master.m3u8","tracks":[]}"#)) == .malformed)
        #expect(Self.reason(signed(#"{"exp":1893456000,"master":"//evil/x.m3u8","tracks":[]}"#)) == .malformed)
        #expect(Self.reason(signed(#"{"exp":-1,"master":"/sample/master.m3u8","tracks":[]}"#)) == .malformed)
        #expect(Self.reason(signed(#"{"exp":1893456000,"master":"/sample/master.m3u8","tracks":[],"extra":1}"#)) == .malformed)
        #expect(Self.reason(signed(#"{"exp":1893456000,"master":"/sample/${HOME}.m3u8","tracks":[]}"#)) == .malformed)
    }

    @Test func tracksAreCheckedAsConfiguredTracksAre() {
        func reason(_ tracks: [ConfigValue]) -> SignedTokenRefusal.Reason? { Self.reason(Self.token(tracks: tracks)) }
        #expect(reason([]) == .invalidTrack)
        #expect(reason([.object(["name": .string("English"), "source": .string("https://s.test/en.vtt")])]) == .invalidTrack)
        #expect(reason([.object(["language": .string("en"), "name": .string("E"), "source": .string("ftp://s.test/en.vtt")])]) == .invalidTrack)
        #expect(reason([.object(["language": .string("en"), "name": .string("E"), "source": .string("https://s.test/en.vtt"), "bogus": .bool(true)])]) == .invalidTrack)
        // RFC 8216 §4.3.4.1.1: two renditions of a group may not share a NAME.
        let twin: ConfigValue = .object(["language": .string("en"), "name": .string("Same"), "source": .string("https://s.test/a.vtt")])
        #expect(reason([twin, twin]) == .invalidTrack)
        guard case .failure(let refusal) = Self.verifier.verify(Self.token(tracks: [twin, twin]), now: 0, graceSeconds: 0) else {
            Issue.record("two tracks named alike were accepted")
            return
        }
        #expect(refusal.detail.contains("tracks[1].name"), "\(refusal.detail)")
    }

    @Test func theMasterIsRefusedAtExpiryAndItsSubtitlesAfterTheGracePeriod() {
        let token = Self.token()
        #expect(Self.reason(token, now: Self.expiry - 1) == nil)
        #expect(Self.reason(token, now: Self.expiry) == .expired)
        #expect(Self.reason(token, now: Self.expiry, grace: 21_600) == nil)
        #expect(Self.reason(token, now: Self.expiry + 21_599, grace: 21_600) == nil)
        #expect(Self.reason(token, now: Self.expiry + 21_600, grace: 21_600) == .expired)
        // The latest expiry with the largest grace does not overflow.
        #expect(Self.reason(Self.token(expiry: SignedPayloadDecoder.latestExpiry), now: Self.expiry, grace: .max) == nil)
    }

    @Test func signingNotConfiguredRefusesEveryToken() {
        let verifier = SignedTokenVerifier(signing: ProxyConfig.Signing())
        guard case .failure(let refusal) = verifier.verify(Self.token(), now: 0, graceSeconds: 0) else {
            Issue.record("a token was accepted with no keys configured")
            return
        }
        #expect(refusal.reason == .notConfigured)
    }

    /// Ten tracks with 150-byte source URLs (a CDN host, a dated asset path, a UUID, a signed query) and
    /// a long master path stay under 4 KiB: 2,959 bytes when this was written.
    @Test func tenTracksWithLongURLsMakeATokenUnder4KiB() throws {
        let languages = ["en", "fr", "de", "es", "it", "pt", "nl", "sv", "ja", "zh"]
        let tracks: [ConfigValue] = languages.map { language in
            let source = "https://subtitles.cdn.example-streaming.com/catalog/2026/12/01/a1b2c3d4-e5f6-4789-abcd-0123456789ab/\(language)/full-sdh.vtt?sig=0123456789abcdef0123456789abcd"
            return .object(["language": .string(language), "name": .string("Subtitles (\(language))"), "source": .string(source)])
        }
        #expect(tracks.allSatisfy { track in
            guard case .object(let members) = track, case .string(let source)? = members["source"] else { return false }
            return source.utf8.count >= 150
        })
        let token = Self.token(master: "/sample/assets/a1b2c3d4-e5f6-4789-abcd-0123456789ab/master.m3u8?session=0123456789abcdef", tracks: tracks)
        #expect(token.utf8.count < 4096, "\(token.utf8.count) bytes")
        let verified = try Self.verifier.verify(token, now: 0, graceSeconds: 0).get()
        #expect(verified.tracks.count == 10)
    }

    /// The longest subtitle URL of a token (longest track id, segment 999999) must fit the server's
    /// 8 KiB request line; a token one byte past that is refused, one exactly at it is served.
    @Test func subtitleURLsLongerThanTheRequestLineLimitAreRefused() throws {
        let id = String(repeating: "t", count: 40)
        func track(source: String) -> [ConfigValue] {
            [.object(["id": .string(id), "language": .string("en"), "name": .string("E"), "source": .string(source)])]
        }
        let base = Self.token(tracks: track(source: "https://s.test/a.vtt"))
        let verified = try Self.verifier.verify(base, now: 0, graceSeconds: 0).get()
        let spare = SignedPlayback.requestLineLimit - SignedPlayback.longestSubtitleRequestLine(token: base, tracks: verified.tracks)
        // Base64url turns 3 payload bytes into 4 characters: pad the source to land exactly on the limit.
        var padding = max(0, spare / 4 * 3 - 6)
        var fitting = base, longest = 0
        while true {
            let candidate = Self.token(tracks: track(source: "https://s.test/a.vtt?" + String(repeating: "x", count: padding)))
            let tracks = try Self.verifier.verify(candidate, now: 0, graceSeconds: 0).get().tracks
            let length = SignedPlayback.longestSubtitleRequestLine(token: candidate, tracks: tracks)
            if length > SignedPlayback.requestLineLimit { break }
            (fitting, longest) = (candidate, length)
            padding += 1
        }
        #expect(longest > SignedPlayback.requestLineLimit - 4)
        #expect(SignedPlayback.subtitleURLsFit(token: fitting, tracks: try Self.verifier.verify(fitting, now: 0, graceSeconds: 0).get().tracks) == nil)
        let tooLong = Self.token(tracks: track(source: "https://s.test/a.vtt?" + String(repeating: "x", count: padding)))
        let refusal = SignedPlayback.subtitleURLsFit(token: tooLong, tracks: try Self.verifier.verify(tooLong, now: 0, graceSeconds: 0).get().tracks)
        #expect(refusal?.reason == .malformed)
    }
}
