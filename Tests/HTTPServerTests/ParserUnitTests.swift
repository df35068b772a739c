@testable import HTTPServer
import HTTPWire
import Testing

@Suite struct ParserUnitTests {
    @Test func dateIsFormattedAsIMFFixdate() {
        // RFC 9110 §5.6.7's own example: 784111777 is Sun, 06 Nov 1994 08:49:37 GMT.
        #expect(String(decoding: UTCDateFormat.imfFixdate(784_111_777), as: UTF8.self) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test func percentDecodingRejectsBadEscapesAndNUL() {
        #expect(PercentDecoding.decodePath(Array("/a%20b%2Fc".utf8)) == "/a b/c")
        #expect(PercentDecoding.decodePath(Array("/%e2%82%ac".utf8)) == "/€")
        #expect(PercentDecoding.decodePath(Array("/%zz".utf8)) == nil)
        #expect(PercentDecoding.decodePath(Array("/%4".utf8)) == nil)
        #expect(PercentDecoding.decodePath(Array("/%".utf8)) == nil)
        #expect(PercentDecoding.decodePath(Array("/%00".utf8)) == nil)
        #expect(PercentDecoding.decodePath(Array("/%C3".utf8)) == nil)
    }

    @Test func theScannerFindsTheHeadAcrossManySmallPieces() {
        let limits = RequestLimits(HTTPServerConfiguration())
        let text = Array("GET / HTTP/1.1\r\nHost: a\r\n\r\nextra".utf8)
        var scanner = HeadScanner()
        var result = HeadScanner.Progress.needMore
        for end in 1...text.count {
            result = scanner.scan(text[0..<end].span, limits: limits)
            if result != .needMore { break }
        }
        #expect(result == .complete(length: text.count - 5))
    }

    @Test func identicalDuplicateContentLengthsAreAccepted() {
        let head = Array("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3, 3\r\n\r\n".utf8)
        let parsed = try? RequestParser.parse(head.span, limits: RequestLimits(HTTPServerConfiguration()))
        #expect(parsed?.contentLength == 3)
    }

    @Test func handlerHeaderValuesCannotSplitTheResponse() {
        let response = HTTPResponse(status: .found, headers: ["Location": "/a\r\nSet-Cookie: x=1"])
        let framing = ResponseWriter.Framing(isHeadRequest: false, keepAlive: true, requestVersion: .http1_1,
                                             date: Array("D".utf8), serverField: ResponseWriter.serverField("s"))
        let head = String(decoding: ResponseWriter.serialize(response, framing: framing).head, as: UTF8.self)
        #expect(head == "HTTP/1.1 302 Found\r\nLocation: /a  Set-Cookie: x=1\r\nServer: s\r\nDate: D\r\nContent-Length: 0\r\n\r\n")
    }
}
