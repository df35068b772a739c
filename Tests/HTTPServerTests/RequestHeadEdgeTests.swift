@testable import HTTPServer
import HTTPWire
import TestSupport
import Testing

/// The edges a request head's readers meet at the ends of their bytes: the last byte of the head, an
/// empty value, a list element at the end, a target with nothing after its `?`. Each is parsed
/// straight by `RequestParser` (no scanner in front), so a read past the end would trap here.
@Suite struct RequestHeadEdgeTests {
    static let limits = RequestLimits(HTTPServerConfiguration())

    static func parse(_ text: String) -> Result<RequestHead, RequestError> {
        parse(Array(text.utf8))
    }

    static func parse(_ bytes: [UInt8]) -> Result<RequestHead, RequestError> {
        do throws(RequestError) {
            return .success(try RequestParser.parse(bytes.span, limits: limits))
        } catch {
            return .failure(error)
        }
    }

    static func reason(_ text: String) -> String? {
        guard case .failure(let error) = parse(text) else { return nil }
        return error.reason
    }

    @Test func everyProperPrefixOfAHeadIsRefusedAndTheWholeHeadIsAccepted() throws {
        let whole = Array("GET /a?b HTTP/1.1\r\nHost: h\r\nX-Empty:\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        for end in 0..<whole.count {
            guard case .failure(let error) = Self.parse(Array(whole[..<end])) else {
                Issue.record("the first \(end) bytes were accepted as a head")
                continue
            }
            #expect(error.status == .badRequest, "prefix of \(end) bytes")
        }
        let head = try Self.parse(whole).get()
        #expect(head.request.path == "/a" && head.request.query == "b" && !head.keepAlive)
    }

    @Test func aCROnTheHeadsLastByteIsABareCR() {
        #expect(Self.reason("GET / HTTP/1.1\r\nHost: h\r\n\r") == "bare CR in request head")
        #expect(Self.reason("GET / HTTP/1.1\r\nHost: h\r\n\r\n\r") == "bare CR in request head")
    }

    @Test func anEmptyOrAllWhitespaceValueIsAnEmptyValue() throws {
        let head = try Self.parse("GET / HTTP/1.1\r\nHost: h\r\nX-Empty:\r\nX-Spaces: \t \r\nX-Tail:  v \t\r\n\r\n").get()
        #expect(head.request.headers["X-Empty"] == "")
        #expect(head.request.headers["X-Spaces"] == "")
        #expect(head.request.headers["X-Tail"] == "v")
        #expect(head.request.headers.count == 4)
    }

    @Test func anEmptyHostValueStillCountsAsTheOneHost() throws {
        let head = try Self.parse("GET / HTTP/1.1\r\nHost:\r\n\r\n").get()
        #expect(head.request.headers["Host"] == "")
    }

    @Test func contentLengthListsAreReadToTheirLastElement() throws {
        #expect(try Self.parse("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 7 , 7\t\r\n\r\n").get().contentLength == 7)
        #expect(Self.reason("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 7,\r\n\r\n") == "invalid Content-Length")
        #expect(Self.reason("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: ,7\r\n\r\n") == "invalid Content-Length")
        #expect(Self.reason("GET / HTTP/1.1\r\nHost: h\r\nContent-Length:\r\n\r\n") == "invalid Content-Length")
        #expect(Self.reason("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 7, 8\r\n\r\n") == "conflicting Content-Length values")
        #expect(Self.reason("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 7x\r\n\r\n") == "invalid Content-Length")
    }

    @Test func transferCodingListsSkipEmptyElementsAtEitherEnd() throws {
        #expect(try Self.parse("GET / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: , CHUNKED ,\r\n\r\n").get().chunked)
        let refused = Self.parse("GET / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, gzip\r\n\r\n")
        guard case .failure(let error) = refused else {
            Issue.record("chunked, gzip was accepted")
            return
        }
        #expect(error.status == .notImplemented)
        #expect(Self.reason("GET / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunke\r\n\r\n") == "Transfer-Encoding not supported")
    }

    @Test func requestLinesCutShortOrPaddedAreMalformed() {
        #expect(Self.reason("GET\r\nHost: h\r\n\r\n") == "malformed request line")
        #expect(Self.reason("GET /\r\nHost: h\r\n\r\n") == "malformed request line")
        #expect(Self.reason("GET / \r\nHost: h\r\n\r\n") == "malformed HTTP version")
        #expect(Self.reason("GET / HTTP/1.1 \r\nHost: h\r\n\r\n") == "malformed HTTP version")
        #expect(Self.reason("GET / HTTP/1.\r\nHost: h\r\n\r\n") == "malformed HTTP version")
        #expect(Self.reason("GET  / HTTP/1.1\r\nHost: h\r\n\r\n") == "malformed request target")
        #expect(Self.reason(" / HTTP/1.1\r\nHost: h\r\n\r\n") == "malformed method")
    }

    @Test func headerLinesCutAtTheColonAreRefusedByName() {
        #expect(Self.reason("GET / HTTP/1.1\r\n:v\r\nHost: h\r\n\r\n") == "empty header name")
        #expect(Self.reason("GET / HTTP/1.1\r\nHost: h\r\nX \r\n\r\n") == "header line without colon")
        #expect(Self.reason("GET / HTTP/1.1\r\nHost: h\r\nX :v\r\n\r\n") == "whitespace before colon in header")
        #expect(Self.reason("GET / HTTP/1.1\r\nHost: h\r\n\tX: v\r\n\r\n") == "obsolete line folding in header")
    }

    @Test(arguments: [
        ("/", "/", "/", nil),
        ("/?", "/", "/", ""),
        ("/a?b?c", "/a", "/a", "b?c"),
        ("/a%20b?q", "/a b", "/a%20b", "q"),
        ("http://h", "/", "/", nil),
        ("http://h?x", "/", "/", "x"),
        ("HTTPS://h/p%41?", "/pA", "/p%41", ""),
    ] as [(String, String, String, String?)])
    func targetsAreSplitAtTheirFirstQuestionMark(target: String, path: String, rawPath: String, query: String?) throws {
        let head = try Self.parse("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n").get()
        #expect(head.request.path == path)
        #expect(head.request.rawPath == rawPath)
        #expect(head.request.query == query)
    }

    @Test func targetsWithBadEscapesOrNoPathAreRefused() {
        #expect(Self.reason("GET /%2 HTTP/1.1\r\nHost: h\r\n\r\n") == "invalid percent-encoding in path")
        #expect(Self.reason("GET /a%zz?q HTTP/1.1\r\nHost: h\r\n\r\n") == "invalid percent-encoding in path")
        #expect(Self.reason("GET http:///p HTTP/1.1\r\nHost: h\r\n\r\n") == "absolute target without host")
        #expect(Self.reason("GET ftp://h/p HTTP/1.1\r\nHost: h\r\n\r\n") == "unsupported request target form")
    }

    /// Random values of visible ASCII, SP and HTAB: each is stored as sent without its surrounding
    /// whitespace, whatever bytes it starts or ends with.
    @Test func randomFieldValuesAreStoredWithoutTheirSurroundingWhitespace() throws {
        var random = SeededGenerator()
        let alphabet: [UInt8] = [0x20, 0x09] + Array(0x21...0x7E)
        for _ in 0..<500 {
            let value = (0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? 0x20 }
            let head = Array("GET / HTTP/1.1\r\nHost: h\r\nX-R:".utf8) + value + Array("\r\n\r\n".utf8)
            let trimmed = value.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
            let parsed = try Self.parse(head).get()
            #expect(parsed.request.headers["X-R"] == String(decoding: Array(trimmed), as: UTF8.self), "value \(value)")
        }
    }
}
