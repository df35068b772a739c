import HTTPWire
import Testing
import TestSupport

/// Twenty "x" bytes with one of them `value`, for every byte value at every place: across two words
/// and the tail, so each place of a word is tried.
func everyByteValueAtEveryPlace(_ check: (_ bytes: [UInt8], _ value: UInt8, _ place: Int) -> Void) {
    for value in UInt8.min...UInt8.max {
        for place in 0..<20 {
            var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 20)
            bytes[place] = value
            check(bytes, value, place)
        }
    }
}

/// The word-at-a-time search for a control byte against the plain loop it stands in for.
@Suite struct FirstControlTests {
    static func reference(_ bytes: [UInt8], from start: Int, to end: Int) -> Int {
        var index = start
        while index < end, !HTTPSyntax.isControl(bytes[index]) { index += 1 }
        return index
    }

    @Test func randomBytesAndRangesGiveThePlainLoopsAnswer() {
        // HLS_TEST_SEED replays a run; the seed is printed and named in every failure.
        var random = SeededGenerator()
        let seed = random.seed
        // Mostly ordinary bytes, with controls, HTAB (ordinary, but a word holding it "might"), DEL,
        // bytes from 0x80 up and the neighbours of each class edge.
        let pool: [UInt8] = Array(0x20...0x7E) + [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0x9F, 0xC3, 0xFF]
        for round in 0..<3_000 {
            let count = Int.random(in: 0...70, using: &random)
            let controls = Int.random(in: 0...3, using: &random)
            var bytes = (0..<count).map { _ in UInt8(ascii: "a") + UInt8.random(in: 0..<26, using: &random) }
            for _ in 0..<(count == 0 ? 0 : controls) {
                bytes[Int.random(in: 0..<count, using: &random)] = pool[Int.random(in: 0..<pool.count, using: &random)]
            }
            let start = Int.random(in: 0...count, using: &random)
            let end = Int.random(in: start...count, using: &random)
            let found = ByteSearch.firstControl(in: bytes.span, from: start, to: end)
            #expect(found == Self.reference(bytes, from: start, to: end), "seed \(seed), round \(round): \(bytes) \(start)..<\(end)")
        }
    }

    @Test func everyByteValueAtEveryPlaceOfAWord() {
        everyByteValueAtEveryPlace { bytes, value, place in
            let found = ByteSearch.firstControl(in: bytes.span, from: 0, to: bytes.count)
            #expect(found == (HTTPSyntax.isControl(value) ? place : bytes.count), "byte \(value) at \(place)")
        }
    }
}

/// The word-at-a-time search for the bytes a path's dot segments and escapes depend on, against the
/// plain loop it stands in for.
@Suite struct FirstPathSignificantTests {
    static func reference(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, !ByteSearch.isPathSignificant(bytes[index]) { index += 1 }
        return index
    }

    @Test func randomPathsGiveThePlainLoopsAnswer() {
        // HLS_TEST_SEED replays a run; the seed is printed and named in every failure.
        var random = SeededGenerator()
        let seed = random.seed
        let plain = Array("abcXYZ019-_~/!$&'()*+,;=:@?#".utf8)
        let special: [UInt8] = [0x25, 0x2E, 0x20, 0x00, 0x09, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xFF]
        for round in 0..<3_000 {
            let count = Int.random(in: 0...70, using: &random)
            var bytes = (0..<count).map { _ in plain[Int.random(in: 0..<plain.count, using: &random)] }
            for _ in 0..<(count == 0 ? 0 : Int.random(in: 0...3, using: &random)) {
                bytes[Int.random(in: 0..<count, using: &random)] = special[Int.random(in: 0..<special.count, using: &random)]
            }
            let start = Int.random(in: 0...count, using: &random)
            #expect(ByteSearch.firstPathSignificant(in: bytes.span, from: start) == Self.reference(bytes, from: start),
                    "seed \(seed), round \(round): \(bytes) from \(start)")
        }
    }

    @Test func everyByteValueAtEveryPlaceOfAWord() {
        everyByteValueAtEveryPlace { bytes, value, place in
            let expected = ByteSearch.isPathSignificant(value) ? place : bytes.count
            #expect(ByteSearch.firstPathSignificant(in: bytes.span, from: 0) == expected, "byte \(value) at \(place)")
        }
    }
}

/// The word-at-a-time check of a request target's bytes against the plain loop it stands in for.
@Suite struct AllTargetBytesTests {
    @Test func randomTargetsGiveThePlainLoopsAnswer() {
        // HLS_TEST_SEED replays a run; the seed is printed and named in every failure.
        var random = SeededGenerator()
        let seed = random.seed
        let plain = Array("abcXYZ019-._~/!$&'()*+,;=:@?%".utf8)
        let other: [UInt8] = [0x23, 0x20, 0x00, 0x09, 0x1F, 0x7F, 0x80, 0xC3, 0xFF, 0x21, 0x7E]
        for round in 0..<3_000 {
            let count = Int.random(in: 0...70, using: &random)
            var bytes = (0..<count).map { _ in plain[Int.random(in: 0..<plain.count, using: &random)] }
            for _ in 0..<(count == 0 ? 0 : Int.random(in: 0...2, using: &random)) {
                bytes[Int.random(in: 0..<count, using: &random)] = other[Int.random(in: 0..<other.count, using: &random)]
            }
            #expect(HTTPSyntax.allTargetBytes(bytes.span) == bytes.allSatisfy(HTTPSyntax.isTargetByte),
                    "seed \(seed), round \(round): \(bytes)")
        }
    }

    @Test func everyByteValueAtEveryPlaceOfAWord() {
        everyByteValueAtEveryPlace { bytes, value, place in
            #expect(HTTPSyntax.allTargetBytes(bytes.span) == HTTPSyntax.isTargetByte(value), "byte \(value) at \(place)")
        }
    }
}
