@testable import HTTPServer
import Testing
import TestSupport

/// The head scanner skips ordinary bytes in a tight loop; these tests hold it to the plain byte-by-byte
/// rules it replaced, on generated heads near every limit, fed whole and in pieces.
@Suite struct HeadScannerTests {
    /// The rules one byte at a time, as the scanner applied them before the fast path.
    static func reference(_ head: [UInt8], limits: RequestLimits) -> HeadScanner.Progress {
        var lineStart = 0, requestLineEnd = -1, headerLines = 0
        for index in head.indices {
            let byte = head[index]
            if byte == 0x0D {
                if index + 1 == head.count { return .needMore }
                if head[index + 1] != 0x0A { return .failed(.badRequest("bare CR in request head")) }
            }
            if byte == 0x0A {
                if requestLineEnd < 0 {
                    let content = index > 0 && head[index - 1] == 0x0D ? index - 1 : index
                    if content > limits.maxRequestLineBytes {
                        return .failed(RequestError(status: .uriTooLong, reason: "request line too long"))
                    }
                    requestLineEnd = index
                } else {
                    if index - requestLineEnd > limits.maxHeaderBytes {
                        return .failed(RequestError(status: .requestHeaderFieldsTooLarge, reason: "header section too large"))
                    }
                    let length = index - lineStart
                    if length == 0 || (length == 1 && head[lineStart] == 0x0D) { return .complete(length: index + 1) }
                    headerLines += 1
                    if headerLines > limits.maxHeaderCount {
                        return .failed(RequestError(status: .requestHeaderFieldsTooLarge, reason: "too many header fields"))
                    }
                }
                lineStart = index + 1
            } else if (byte < 0x20 && byte != 0x09 && byte != 0x0D) || byte == 0x7F {
                return .failed(.badRequest(byte == 0x16 && index == 0
                    ? "TLS handshake sent to a plain HTTP port" : "control character in request head"))
            }
            if requestLineEnd < 0 {
                if index > limits.maxRequestLineBytes {
                    return .failed(RequestError(status: .uriTooLong, reason: "request line too long"))
                }
            } else if index - requestLineEnd > limits.maxHeaderBytes {
                return .failed(RequestError(status: .requestHeaderFieldsTooLarge, reason: "header section too large"))
            }
        }
        return .needMore
    }

    /// Bounded draws from the shared seeded generator, so a failure names a reproducible case
    /// (the seed is printed; HLS_TEST_SEED replays it).
    struct Generator {
        var source: SeededGenerator
        /// Made inside each test, so the printed seed is labelled with the test that drew from it.
        init(test: String = #function, fileID: String = #fileID) {
            source = SeededGenerator(test: test, fileID: fileID)
        }
        mutating func next(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &source) }
    }

    /// A head-like run of bytes: mostly letters, with line endings, the odd control byte and bytes >= 0x80.
    static func makeHead(_ random: inout Generator) -> [UInt8] {
        var bytes: [UInt8] = []
        let length = random.next(90)
        for _ in 0..<length {
            switch random.next(40) {
            case 0...4: bytes += [0x0D, 0x0A]
            case 5: bytes.append(0x0A)
            case 6: bytes.append(0x0D)
            case 7: bytes.append([0x00, 0x16, 0x1F, 0x7F, 0x09][random.next(5)])
            case 8: bytes.append(0x80 + UInt8(random.next(128)))
            default: bytes.append(0x41 + UInt8(random.next(26)))
            }
        }
        if random.next(2) == 0 { bytes += [0x0D, 0x0A, 0x0D, 0x0A] }
        return bytes
    }

    static func scan(_ head: [UInt8], limits: RequestLimits, piece: Int) -> HeadScanner.Progress {
        var scanner = HeadScanner()
        var end = 0
        while true {
            end = min(head.count, end + piece)
            let result = scanner.scan(head[0..<end].span, limits: limits)
            if result != .needMore || end == head.count { return result }
        }
    }

    @Test func theFastPathAgreesWithTheByteByByteRules() {
        var random = Generator()
        var configuration = HTTPServerConfiguration()
        var checked = 0
        for round in 0..<4000 {
            configuration.maxRequestLineBytes = 16 + random.next(40)
            configuration.maxHeaderBytes = random.next(60)
            configuration.maxHeaderCount = random.next(6)
            let limits = RequestLimits(configuration)
            let head = Self.makeHead(&random)
            let expected = Self.reference(head, limits: limits)
            for piece in [head.count + 1, 1, 1 + round % 7] {
                let got = Self.scan(head, limits: limits, piece: max(1, piece))
                #expect(got == expected, "head \(head), limits \(limits), piece \(piece)")
                checked += 1
            }
        }
        #expect(checked == 12_000)
    }

    @Test func anOrdinaryByteJustPastEachLimitFailsAndOneAtTheLimitDoesNot() {
        var configuration = HTTPServerConfiguration()
        configuration.maxRequestLineBytes = 20
        configuration.maxHeaderBytes = 10
        let limits = RequestLimits(configuration)
        // Indexes 0...20 of the request line are allowed; index 21 is one too many.
        let atLimit = Array(repeating: UInt8(ascii: "a"), count: 21)
        #expect(Self.scan(atLimit, limits: limits, piece: 64) == .needMore)
        #expect(Self.scan(atLimit + [0x61], limits: limits, piece: 64) == .failed(RequestError(status: .uriTooLong, reason: "request line too long")))
        // After the request line's LF at index 3, header bytes may reach index 13 (3 + 10).
        let headers = Array("abc\n".utf8) + Array(repeating: UInt8(ascii: "h"), count: 10)
        #expect(Self.scan(headers, limits: limits, piece: 64) == .needMore)
        #expect(Self.scan(headers + [0x68], limits: limits, piece: 64)
            == .failed(RequestError(status: .requestHeaderFieldsTooLarge, reason: "header section too large")))
    }

    @Test func aBareCRIsRefusedAsSoonAsTheByteAfterItArrives() {
        let limits = RequestLimits(HTTPServerConfiguration())
        let head = Array("GET / HTTP/1.1\rHost: x\r\r".utf8)
        let bareCR = HeadScanner.Progress.failed(.badRequest("bare CR in request head"))
        // Whole, and a byte at a time: the CR alone waits, the byte after it decides.
        #expect(Self.scan(head, limits: limits, piece: 64) == bareCR)
        #expect(Self.scan(head, limits: limits, piece: 1) == bareCR)
        #expect(Self.scan(Array("GET / HTTP/1.1\r".utf8), limits: limits, piece: 1) == .needMore)
    }

    @Test func aHeaderSectionOfExactlyTheLimitIsAcceptedAndOneByteMoreIsNot() {
        var configuration = HTTPServerConfiguration()
        configuration.maxHeaderBytes = 32_768
        let limits = RequestLimits(configuration)
        let requestLine = Array("GET / HTTP/1.1\r\n".utf8)
        // "Host: x\r\n" + "X-Pad: ...\r\n" + "\r\n" = exactly 32,768 bytes after the request line.
        let fixed = "Host: x\r\nX-Pad: \r\n\r\n".utf8.count
        let exact = requestLine + Array("Host: x\r\nX-Pad: \(String(repeating: "p", count: 32_768 - fixed))\r\n\r\n".utf8)
        #expect(exact.count - requestLine.count == 32_768)
        #expect(Self.scan(exact, limits: limits, piece: 4096) == .complete(length: exact.count))
        let over = requestLine + Array("Host: x\r\nX-Pad: \(String(repeating: "p", count: 32_769 - fixed))\r\n\r\n".utf8)
        #expect(Self.scan(over, limits: limits, piece: 4096)
            == .failed(RequestError(status: .requestHeaderFieldsTooLarge, reason: "header section too large")))
    }

    @Test func aRequestLineEndedByABareLFIsHeldToTheSameLimitAsOneEndedByCRLF() {
        var configuration = HTTPServerConfiguration()
        configuration.maxRequestLineBytes = 20
        let limits = RequestLimits(configuration)
        let tooLong = HeadScanner.Progress.failed(RequestError(status: .uriTooLong, reason: "request line too long"))
        let line = Array(repeating: UInt8(ascii: "a"), count: 21)
        #expect(Self.scan(line + [0x0D, 0x0A], limits: limits, piece: 64) == tooLong)
        #expect(Self.scan(line + [0x0A], limits: limits, piece: 64) == tooLong)
        #expect(Self.scan(Array(line.dropLast()) + [0x0A], limits: limits, piece: 64) == .needMore)
    }
}
